// The built-in strategies' descriptions (scheduler/inner_parallelism.h), out
// of line: the header does not include <string>.
#include "scheduler/inner_parallelism.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace strata {

std::string scheduler_internal::fixed_threshold_text(std::size_t threshold,
                                                     std::string_view above,
                                                     std::string_view below) {
  std::string text = "fixed_threshold(" + std::to_string(threshold) + ", ";
  text.append(above).append(", ").append(below).append(")");
  return text;
}

namespace inner_parallelism {

std::string automatic_t::describe() const { return "automatic"; }

std::string none_t::describe() const { return "none"; }

std::string split_evenly_t::describe() const {
  return "split_evenly(" + std::to_string(count) + ")";
}

std::string split_evenly_per_core_t::describe() const {
  return "split_evenly_per_core";
}

std::string split_every_n_t::describe() const {
  return "split_every_n(" + std::to_string(per_subtask) + ")";
}

}  // namespace inner_parallelism
}  // namespace strata
