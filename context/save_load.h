// Save a whole world to a stream and load it back.
//
//   #include "context/save_load.h"   // (strata.h does not: xxHash)
//   std::ofstream file("world.bin", std::ios::binary);
//   if (ctx.save(file) != strata::save_error::none) ...
//   std::ifstream in("world.bin", std::ios::binary);
//   const strata::load_error error = ctx.load(in);  // between steps
//   if (error != strata::load_error::none) log(strata::to_string(error));
//
// What is saved: what a snapshot holds (context/snapshot.h) but the
// subscriptions, which load rebuilds from the components (between steps an
// entity belongs to exactly the systems whose rule its components match):
// every entity slot with its version and the free list (ids valid before a
// save are valid after a load, and the ids handed out next are the same),
// every component of every live entity, every resource, and the hierarchy
// (context/hierarchy.h) when the settings declare one: each entity's parent,
// children order and depth level, so that systems in hierarchy order visit
// in the same order. After a load the
// next steps are bit-identical to the steps the saving program would have
// run.
//
// How values are written. A trivially copyable component or resource: its
// bytes. Any other component: through the serializer its signature names,
// component_signature::make(...).serialize_with(io)
// (component_storage/component_signature.h),
// e.g. strata::cereal_io (context/cereal_io.h); any other resource: through
// `using serializer = io;` in the resource type. A type with neither is a
// compile error naming it where ctx.save or ctx.load is called. A custom
// serializer's load gets a value-initialized T and a stream holding exactly
// the bytes its save wrote.
//
// Load refuses bad input and loses nothing: the stream is read and checked
// whole into a staging world first; the context changes only once all of
// it is valid. Each refusal is a load_error naming what was wrong:
//   not_a_world_file      the first 8 bytes are not the magic below;
//   unsupported_version   a format version this build does not read;
//   different_byte_order  written on a machine of the other endianness;
//   different_components  written by a program with other component or
//                         resource types, sizes, alignments, storages or
//                         serializers (a fingerprint of the settings);
//   truncated             the stream ended before the header or payload did;
//   checksum_mismatch     payload bytes changed since they were written;
//   malformed             intact bytes that do not make a world of this
//                         program (inconsistent ids or counts, more
//                         entities than the limit, a serializer's load
//                         returned false or threw, a hierarchy entry
//                         naming an index out of range or not alive or
//                         an entity twice, a parent not one level up: a
//                         cycle, children listed under another parent).
// save_error::write_failed: the stream went bad while writing.
//
// Format (version 1; integers in the writer's byte order, checked):
//   header, 40 bytes:
//     [0, 8)   magic "STRATAW\0"
//     [8, 12)  u32 format version (1)
//     [12, 16) u32 0x01020304 (byte order)
//     [16, 24) u64 fingerprint: XXH3-64 of the list of every component
//              (name from meta/type_name.h, size, alignment, storage
//              selector, layout, serializer) and resource (name, size,
//              alignment, serializer), the id and bitset word sizes,
//              and the hierarchy's kill rule when one is declared
//     [24, 32) u64 payload size in bytes
//     [32, 40) u64 XXH3-64 checksum of the payload
//   payload:
//     u64 indices used; id-sized free-list head and tail; the id slot of
//     every index used (entity/entity_storage.h);
//     each live entity's component bitset words, in index order;
//     per component type (component list order): u64 count, then the
//     count values of the live entities that have it, in index order
//     (nothing for an empty type; bytes of a trivially copyable one; u64
//     size then the serializer's bytes otherwise);
//     each resource in declaration order, the same way;
//     with a hierarchy declared: u64 level count (one past the deepest
//     level ever used); per depth d >= 1 below it, u64 entry count, then
//     each entry of the level in its order, u32 entity index and u32
//     parent index; then per entity with children, in index order, its
//     children's u32 indices in children order (the count is implied by
//     the level entries naming it as parent).
// Type names come from the compiler: a file written by a GCC build may be
// refused (different_components) by a Clang build.
//
// Cost: save writes the payload to memory first (for its checksum), then
// to the stream; load reads the payload into memory and builds the staging
// world before replacing the context's: memory for about two copies of the
// world. O(entity slots × component types + bytes).
#ifndef STRATA_CONTEXT_SAVE_LOAD_H_
#define STRATA_CONTEXT_SAVE_LOAD_H_

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include "component_storage/component_signature.h"
#include "context/internal/byte_streams.h"
#include "context/snapshot.h"
#include "meta/type_list.h"
#include "meta/type_name.h"

namespace strata {

enum class save_error { none, write_failed };

enum class load_error {
  none,
  not_a_world_file,
  unsupported_version,
  different_byte_order,
  different_components,
  truncated,
  checksum_mismatch,
  malformed,
};

constexpr std::string_view to_string(load_error error) {
  switch (error) {
    case load_error::none:
      return "none";
    case load_error::not_a_world_file:
      return "not a world file";
    case load_error::unsupported_version:
      return "unsupported format version";
    case load_error::different_byte_order:
      return "different byte order";
    case load_error::different_components:
      return "written by a program with different components or resources";
    case load_error::truncated:
      return "truncated";
    case load_error::checksum_mismatch:
      return "checksum mismatch";
    case load_error::malformed:
      return "malformed";
  }
  return "unknown";
}

namespace context_internal {

using no_serializer = component_signature::signature_internal::no_serializer;

template <typename T>
struct resource_serializer {
  using type = no_serializer;
};
template <typename T>
requires requires { typename T::serializer; }
struct resource_serializer<T> {
  using type = typename T::serializer;
};

template <typename Io, typename T>
void write_value(payload_writer& out, const T& value) {
  if constexpr (!std::is_same_v<Io, no_serializer>) {
    out.framed([&](std::ostream& stream) { Io::save(stream, value); });
  } else if constexpr (!std::is_empty_v<T>) {
    out.bytes(&value, sizeof(T));
  }
}

// Reads a T into `into` (assigned: a resource; or a fresh T passed to
// `emplace`): false when the bytes are short or refused.
template <typename Io, typename T, typename Emplace>
bool read_value(payload_reader& in, Emplace&& emplace) {
  if constexpr (!std::is_same_v<Io, no_serializer>) {
    T value{};
    if (!in.framed(
            [&](std::istream& stream) { return Io::load(stream, value); }))
      return false;
    emplace(std::move(value));
    return true;
  } else {
    alignas(T) unsigned char bytes[sizeof(T)] = {};
    if (!std::is_empty_v<T> && !in.bytes(bytes, sizeof(T))) return false;
    emplace(*std::launder(reinterpret_cast<const T*>(bytes)));
    return true;
  }
}

inline constexpr char kWorldMagic[8] = {'S', 'T', 'R', 'A',
                                        'T', 'A', 'W', '\0'};
inline constexpr std::uint32_t kWorldFormatVersion = 1;
inline constexpr std::uint32_t kByteOrderMark = 0x01020304;
inline constexpr std::size_t kWorldHeaderSize = 40;

}  // namespace context_internal

}  // namespace strata

#include "context/internal/world_io.h"

#endif  // STRATA_CONTEXT_SAVE_LOAD_H_
