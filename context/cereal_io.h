// strata::cereal_io: saves and loads components (and resources) through
// cereal (Debian's libcereal-dev), for types cereal can serialize.
//
//   #include "context/cereal_io.h"
//   #include <cereal/types/string.hpp>   // cereal's support for the members
//   struct label {
//     std::string name;
//     template <typename Archive>
//     void serialize(Archive& archive) { archive(name); }
//   };
//   strata::component_signature::make(ct::label).hash_map().serialize_with(
//       strata::cereal_io{})
//   struct inventory { std::vector<int> items; ...;
//                      using serializer = strata::cereal_io; };  // resource
//
// Each value is written with cereal's binary archive (the machine's byte
// order, like the rest of a saved world, context/save_load.h). A value
// whose bytes cereal cannot read back (it throws cereal::Exception) makes
// ctx.load() refuse the stream as malformed.
#ifndef STRATA_CONTEXT_CEREAL_IO_H_
#define STRATA_CONTEXT_CEREAL_IO_H_

#include <cereal/archives/binary.hpp>
#include <istream>
#include <ostream>

namespace strata {

struct cereal_io {
  template <typename T>
  static void save(std::ostream& out, const T& value) {
    cereal::BinaryOutputArchive archive(out);
    archive(value);
  }
  template <typename T>
  static bool load(std::istream& in, T& value) {
    try {
      cereal::BinaryInputArchive archive(in);
      archive(value);
      return true;
    } catch (const cereal::Exception&) {
      return false;
    }
  }
};

}  // namespace strata

#endif  // STRATA_CONTEXT_CEREAL_IO_H_
