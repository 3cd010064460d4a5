#include "context/internal/change_stamps.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace strata::context_internal {
namespace {

// The mutexes the logs share: a log's is picked by its address, so two
// logs appended to at once rarely wait for each other, and a log needs no
// mutex of its own (it stays copyable for snapshots).
constexpr std::size_t log_mutex_count = 64;
std::mutex log_mutexes[log_mutex_count];

std::mutex& mutex_of(const void* log) {
  const auto address = reinterpret_cast<std::uintptr_t>(log);
  return log_mutexes[(address / alignof(std::max_align_t)) % log_mutex_count];
}

}  // namespace

void change_log::append_shared(std::size_t begin, std::size_t end,
                               std::uint64_t stamp) {
  std::lock_guard<std::mutex> lock(mutex_of(this));
  append_unshared(begin, end, stamp);
}

// A filtering system's run gathers its ranges once, and a step discards
// what every reader saw once: out of line, so that programs compile the
// loops and std::erase_if once, here.
void change_log::gather(std::uint64_t since, std::uint64_t until,
                        std::vector<index_range>& out) const {
  for (const entry& e : entries_) {
    if (e.stamp > since && e.stamp <= until) out.push_back(e.range);
  }
}

void change_log::discard_up_to(std::uint64_t seen) noexcept {
  std::erase_if(entries_, [&](const entry& e) { return e.stamp <= seen; });
}

}  // namespace strata::context_internal
