#include "context/internal/change_stamps.h"

#include <cstddef>
#include <cstdint>
#include <mutex>

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

}  // namespace strata::context_internal
