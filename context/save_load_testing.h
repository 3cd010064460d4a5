// Shared by the save/load tests: a context saved to bytes in memory and
// loaded back from them, through the same std::ostream / std::istream
// overloads a program uses with a file.
#ifndef STRATA_CONTEXT_SAVE_LOAD_TESTING_H_
#define STRATA_CONTEXT_SAVE_LOAD_TESTING_H_

#include <sstream>
#include <string>

#include "context/save_load.h"
#include "gtest/gtest.h"

namespace strata::save_load_testing {

// The bytes ctx.save writes; a failed save fails the calling test.
template <typename Context>
std::string save_to_string(const Context& ctx) {
  std::ostringstream out;
  EXPECT_EQ(ctx.save(out), save_error::none);
  return out.str();
}

// ctx.load of `bytes`.
template <typename Context>
load_error load_from_string(Context& ctx, const std::string& bytes) {
  std::istringstream in(bytes);
  return ctx.load(in);
}

}  // namespace strata::save_load_testing

#endif  // STRATA_CONTEXT_SAVE_LOAD_TESTING_H_
