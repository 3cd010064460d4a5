// The allocation counter counts every form of operator new, on any thread.
#include "testing/allocation_counter.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <thread>

#include "gtest/gtest.h"

namespace strata::testing {
namespace {

TEST(AllocationCounterTest, CountsEveryFormOfOperatorNew) {
  const std::size_t before = allocation_count();
  void* plain = ::operator new(16);
  void* array = ::operator new[](16);
  void* nothrow = ::operator new(16, std::nothrow);
  void* aligned = ::operator new (16, std::align_val_t{64});
  void* aligned_nothrow =
      ::operator new (16, std::align_val_t{64}, std::nothrow);
  EXPECT_EQ(allocation_count() - before, 5u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 64, 0u);
  ::operator delete(plain);
  ::operator delete[](array);
  ::operator delete(nothrow);
  ::operator delete (aligned, std::align_val_t{64});
  ::operator delete (aligned_nothrow, std::align_val_t{64});
  EXPECT_EQ(allocation_count() - before, 5u);  // frees are not counted
}

TEST(AllocationCounterTest, CountsAllocationsOfOtherThreads) {
  std::size_t before = 0;
  std::thread thread([&before] {
    before = allocation_count();
    ::operator delete(::operator new(8));
  });
  thread.join();
  EXPECT_GE(allocation_count() - before, 1u);
}

TEST(AllocationCounterTest, AnImpossibleAlignedSizeFailsInsteadOfWrapping) {
  EXPECT_EQ(::operator new (static_cast<std::size_t>(-1), std::align_val_t{64},
                            std::nothrow),
            nullptr);
}

}  // namespace
}  // namespace strata::testing
