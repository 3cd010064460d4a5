// Internal to //context: ctx.save and ctx.load (context/save_load.h has the
// contract and the format). Save writes the payload to memory, then the
// header and the payload to the stream; load checks the header, reads and
// checksums the payload, parses it into a staging world_snapshot, rebuilds
// the subscriptions there, and only then restores the staging world into
// the context. A program that declares a hierarchy also saves the relation
// (the depth levels' entries in their order, then each parent's children in
// theirs) and load rebuilds it, checked whole (write_hierarchy,
// read_hierarchy). Included by context/save_load.h after the declarations it
// uses (the errors, write_value, read_value, the header constants).
#ifndef STRATA_CONTEXT_INTERNAL_WORLD_IO_H_
#define STRATA_CONTEXT_INTERNAL_WORLD_IO_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <istream>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/internal/owned_ptr.h"
#include "context/internal/byte_streams.h"
#include "context/internal/hierarchy_storage.h"
#include "context/snapshot.h"
#include "meta/type_list.h"
#include "meta/type_name.h"

namespace strata::context_internal {

template <typename Types>
struct world_io {
  using component_list = typename Types::component_list;
  using component_types = typename component_list::component_types;
  using resource_types =
      typename resource_types_of<typename Types::resource_storage_type>::type;
  using entity_storage_type = typename Types::entity_storage_type;
  using value_type = typename entity_storage_type::value_type;
  using bitset_type = typename Types::bitset_type;
  static constexpr std::size_t component_count = size_v<component_types>;

  template <typename T>
  using serializer_of = typename type_at_t<
      component_list::template signature_index_of<T>(),
      typename component_list::signature_types>::serializer_type;
  template <typename T>
  using resource_serializer_of = typename resource_serializer<T>::type;

  // The component and resource types that can be neither saved as bytes
  // nor through a serializer; ctx.save / ctx.load report the first.
  template <typename Io, typename T>
  using if_unserializable =
      std::conditional_t<std::is_same_v<Io, no_serializer> &&
                             !std::is_trivially_copyable_v<T>,
                         type_list<T>, type_list<>>;
  template <typename Components, typename Resources>
  struct unserializable_in;
  template <typename... Cs, typename... Rs>
  struct unserializable_in<type_list<Cs...>, type_list<Rs...>> {
    using type =
        concat_t<type_list<>, if_unserializable<serializer_of<Cs>, Cs>...,
                 if_unserializable<resource_serializer_of<Rs>, Rs>...>;
  };
  using unserializable =
      typename unserializable_in<component_types, resource_types>::type;

  // XXH3 of every component's and resource's description.
  static std::uint64_t fingerprint() {
    std::string text;
    const auto add = [&text](std::string_view part) {
      text.append(part);
      text.push_back('\n');
    };
    for_each_type(component_types{}, [&]<typename T>(tag_t<T>) {
      using signature =
          type_at_t<component_list::template signature_index_of<T>(),
                    typename component_list::signature_types>;
      add(name_of<T>());
      add(std::to_string(sizeof(T)) + " " + std::to_string(alignof(T)));
      add(name_of<typename signature::storage_type>());
      add(name_of<typename signature::layout_type>());
      add(name_of<serializer_of<T>>());
    });
    for_each_type(resource_types{}, [&]<typename T>(tag_t<T>) {
      add(name_of<T>());
      add(std::to_string(sizeof(T)) + " " + std::to_string(alignof(T)));
      add(name_of<resource_serializer_of<T>>());
    });
    add(std::to_string(sizeof(value_type)) + " " +
        std::to_string(sizeof(typename bitset_type::word_type)));
    if constexpr (Types::has_hierarchy) {
      add(name_of<typename Types::hierarchy_type>());
    }
    return XXH3_64bits(text.data(), text.size());
  }

  template <typename Core>
  static save_error save(const Core& core, std::ostream& out) {
    std::string payload;
    write_payload(core, payload);
    const std::uint64_t header_values[4] = {
        fingerprint(), payload.size(),
        XXH3_64bits(payload.data(), payload.size()), 0};
    out.write(kWorldMagic, sizeof(kWorldMagic));
    out.write(reinterpret_cast<const char*>(&kWorldFormatVersion), 4);
    out.write(reinterpret_cast<const char*>(&kByteOrderMark), 4);
    out.write(reinterpret_cast<const char*>(header_values), 24);
    out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
    return out.good() ? save_error::none : save_error::write_failed;
  }

  template <typename Core>
  static void write_payload(const Core& core, std::string& payload) {
    payload_writer out(payload);
    const auto& entities = core.entities();
    const std::size_t end = entities.end_index();
    out.value(std::uint64_t{end});
    out.value(entities.free_list_head());
    out.value(entities.free_list_tail());
    for (std::size_t i = 0; i < end; ++i) out.value(entities.slot_value(i));
    for (std::size_t i = 0; i < end; ++i) {
      if (!entities.alive_at(i)) continue;
      const auto& bits = entities.metadata_at(i).components;
      for (std::size_t w = 0; w < bits.word_count; ++w) out.value(bits.word(w));
    }
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (write_component<K>(core, out), ...);
    }
    (std::make_index_sequence<component_count>{});
    for_each_type(resource_types{}, [&]<typename T>(tag_t<T>) {
      write_value<resource_serializer_of<T>>(
          out, core.resources().template get<T>());
    });
    if constexpr (Types::has_hierarchy) {
      write_hierarchy(core.hierarchy().storage, entities.end_index(), out);
    }
  }

  // The level count; per level d >= 1 its entry count and entries (index,
  // parent) in order; then, per entity with children in index order, its
  // children in order (their count is the level entries naming it).
  static void write_hierarchy(const hierarchy_storage& storage, std::size_t end,
                              payload_writer& out) {
    out.value(std::uint64_t{storage.level_count()});
    for (std::size_t d = 1; d < storage.level_count(); ++d) {
      out.value(std::uint64_t{storage.level(d).size()});
      for (const auto& entry : storage.level(d)) {
        out.value(entry.index);
        out.value(entry.parent);
      }
    }
    for (std::size_t p = 0; p < end; ++p) {
      for (auto c = storage.first_child(p); c != hierarchy_storage::none;
           c = storage.next_sibling(c)) {
        out.value(c);
      }
    }
  }

  template <std::size_t K, typename Core>
  static void write_component(const Core& core, payload_writer& out) {
    using T = type_at_t<K, component_types>;
    out.value(std::uint64_t{core.components().template count<T>()});
    for_each_holder<K>(core.entities(), [&](auto id) {
      write_value<serializer_of<T>>(out, core.components().template get<T>(id));
    });
  }

  template <std::size_t K, typename F>
  static void for_each_holder(const entity_storage_type& entities, F&& f) {
    const std::size_t end = entities.end_index();
    for (std::size_t i = 0; i < end; ++i) {
      if (entities.alive_at(i) && entities.metadata_at(i).components.test(K)) {
        f(entities.live_id_at(i));
      }
    }
  }

  template <typename Core>
  static load_error load(Core& core, std::istream& in) {
    unsigned char header[kWorldHeaderSize];
    in.read(reinterpret_cast<char*>(header), kWorldHeaderSize);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (std::memcmp(header, kWorldMagic, std::min(got, sizeof(kWorldMagic))) !=
        0)
      return load_error::not_a_world_file;
    if (got < kWorldHeaderSize) return load_error::truncated;
    std::uint32_t version, byte_order;
    std::uint64_t values[3];  // fingerprint, payload size, checksum
    std::memcpy(&version, header + 8, 4);
    std::memcpy(&byte_order, header + 12, 4);
    std::memcpy(values, header + 16, 24);
    // The byte order first: the other order would misread the version too.
    if (byte_order != kByteOrderMark) return load_error::different_byte_order;
    if (version != kWorldFormatVersion) return load_error::unsupported_version;
    if (values[0] != fingerprint()) return load_error::different_components;
    std::string payload;
    if (!read_exactly(in, values[1], payload)) return load_error::truncated;
    if (XXH3_64bits(payload.data(), payload.size()) != values[2]) {
      return load_error::checksum_mismatch;
    }
    world_snapshot<Types> staging;
    payload_reader reader(payload.data(), payload.data() + payload.size());
    if (!parse(core, reader, staging) || !reader.at_end()) {
      return load_error::malformed;
    }
    staging.restore_into(core);
    return load_error::none;
  }

  // Grows `out` as bytes arrive, so a size field claiming more than the
  // stream holds costs no more memory than the stream.
  static bool read_exactly(std::istream& in, std::uint64_t size,
                           std::string& out) {
    constexpr std::uint64_t kPiece = std::uint64_t{1} << 20;
    while (out.size() < size) {
      const std::size_t old = out.size();
      const std::size_t piece =
          static_cast<std::size_t>(std::min(kPiece, size - old));
      out.resize(old + piece);
      in.read(out.data() + old, static_cast<std::streamsize>(piece));
      if (static_cast<std::size_t>(in.gcount()) != piece) return false;
    }
    return true;
  }

  template <typename Core>
  static bool parse(Core& core, payload_reader& in,
                    world_snapshot<Types>& staging) {
    std::uint64_t end = 0;
    value_type head{}, tail{};
    if (!in.value(end) || !in.value(head) || !in.value(tail)) return false;
    if (end > entity_storage_type::max_size()) return false;
    std::vector<value_type> slots(static_cast<std::size_t>(end));
    if (!in.bytes(slots.data(), slots.size() * sizeof(value_type)))
      return false;
    staging.entities_ = base_internal::make_owned<entity_storage_type>();
    auto& entities = *staging.entities_;
    if (!entities.assign_slots(slots.data(), slots.size(), head, tail))
      return false;
    for (std::size_t i = 0; i < end; ++i) {
      if (!entities.alive_at(i)) continue;
      auto& meta = entities.metadata_at(i);
      if (!read_bits(in, meta.components)) return false;
      meta.extra.matched = true;  // every live entity went through a refresh
    }
    const bool components_read = [&]<std::size_t... K>(
        std::index_sequence<K...>) {
      return (read_component<K>(in, staging) && ...);
    }
    (std::make_index_sequence<component_count>{});
    if (!components_read) return false;
    bool resources_read = true;
    for_each_type(resource_types{}, [&]<typename T>(tag_t<T>) {
      resources_read =
          resources_read &&
          read_value<resource_serializer_of<T>, T>(in, [&](auto&& value) {
            staging.resources_.template get<T>() =
                std::forward<decltype(value)>(value);
          });
    });
    if (!resources_read) return false;
    if constexpr (Types::has_hierarchy) {
      if (!read_hierarchy(in, entities, staging.hierarchy_)) return false;
    }
    for (std::size_t s = 0; s < Types::system_count; ++s) {
      const auto rule = core.subscription(s).rule();
      auto& members = staging.members_[s];
      members.clear();
      for (std::size_t i = 0; i < end; ++i) {
        if (entities.alive_at(i) &&
            rule.matches(entities.metadata_at(i).components)) {
          members.insert(i);
        }
      }
    }
    return true;
  }

  // The relation write_hierarchy wrote, refused (false) unless every entry
  // names two live entities, each entity at most once, each parent one
  // level up (which rules out cycles: the depth falls by one per step
  // up), and each parent's children listed once each.
  static bool read_hierarchy(payload_reader& in,
                             const entity_storage_type& entities,
                             hierarchy_storage& storage) {
    using index_type = hierarchy_storage::index_type;
    using entry_type = hierarchy_storage::level_entry;
    const std::size_t end = entities.end_index();
    std::uint64_t level_count = 0;
    if (!in.value(level_count) || level_count > end) return false;
    std::vector<entry_type> entries;
    std::vector<index_type> depth(end, 0);  // 0: a root
    for (std::size_t d = 1; d < level_count; ++d) {
      std::uint64_t size = 0;
      if (!in.value(size) || size > end - entries.size()) return false;
      for (std::uint64_t k = 0; k < size; ++k) {
        entry_type entry{};
        if (!in.value(entry.index) || !in.value(entry.parent)) return false;
        if (entry.index >= end || entry.parent >= end ||
            !entities.alive_at(entry.index) ||
            !entities.alive_at(entry.parent) || depth[entry.index] != 0) {
          return false;
        }
        depth[entry.index] = static_cast<index_type>(d);
        entries.push_back(entry);
      }
    }
    for (const entry_type& entry : entries) {
      if (depth[entry.parent] + 1 != depth[entry.index]) return false;
    }
    storage = hierarchy_storage{};
    for (const entry_type& entry : entries) {
      storage.attach(entry.index, entry.parent);
    }
    storage.keep_levels(static_cast<std::size_t>(level_count));
    return read_children_order(in, end, storage);
  }

  // Each parent's children, in the saved order.
  static bool read_children_order(payload_reader& in, std::size_t end,
                                  hierarchy_storage& storage) {
    using index_type = hierarchy_storage::index_type;
    std::vector<bool> placed(end, false);
    std::vector<index_type> order;
    for (std::size_t p = 0; p < end; ++p) {
      order.clear();
      for (auto c = storage.first_child(p); c != hierarchy_storage::none;
           c = storage.next_sibling(c)) {
        index_type child = 0;
        if (!in.value(child) || child >= end || storage.parent(child) != p ||
            placed[child]) {
          return false;
        }
        placed[child] = true;
        order.push_back(child);
      }
      if (!order.empty()) storage.order_children(p, order);
    }
    return true;
  }

  // Bits past the component count must be clear.
  static bool read_bits(payload_reader& in, bitset_type& bits) {
    using word_type = typename bitset_type::word_type;
    for (std::size_t w = 0; w < bitset_type::word_count; ++w) {
      word_type word = 0;
      if (!in.value(word)) return false;
      for (std::size_t b = 0; b < bitset_type::word_bits; ++b) {
        if (((word >> b) & 1) == 0) continue;
        const std::size_t bit = w * bitset_type::word_bits + b;
        if (bit >= component_count) return false;
        bits.set(bit);
      }
    }
    return true;
  }

  template <std::size_t K>
  static bool read_component(payload_reader& in,
                             world_snapshot<Types>& staging) {
    using T = type_at_t<K, component_types>;
    std::uint64_t count = 0;
    if (!in.value(count)) return false;
    std::uint64_t holders = 0;
    for_each_holder<K>(*staging.entities_, [&](auto) { ++holders; });
    if (count != holders) return false;
    auto& values = base_internal::get<K>(staging.values_);
    values.clear();
    for (std::uint64_t n = 0; n < count; ++n) {
      const bool read = read_value<serializer_of<T>, T>(in, [&](auto&& value) {
        if (!std::is_empty_v<T> || values.empty()) {
          values.push_back(std::forward<decltype(value)>(value));
        }
      });
      if (!read) return false;
    }
    return true;
  }
};

}  // namespace strata::context_internal

#endif  // STRATA_CONTEXT_INTERNAL_WORLD_IO_H_
