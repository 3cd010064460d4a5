// The failing allocation fails the allocation a test picks, once, in every
// form of operator new.
#include "testing/failing_allocation.h"

#include <cstddef>
#include <cstdint>
#include <new>

#include "gtest/gtest.h"

namespace strata::testing {
namespace {

TEST(FailingAllocationTest, FailsTheNthAllocationOnce) {
  fail_nth_allocation(2);
  void* first = ::operator new(16);
  EXPECT_THROW(static_cast<void>(::operator new(16)), std::bad_alloc);
  void* third = ::operator new(16);
  ::operator delete(first);
  ::operator delete(third);
}

TEST(FailingAllocationTest, FailsEveryForm) {
  fail_nth_allocation(1);
  EXPECT_THROW(static_cast<void>(::operator new[](16)), std::bad_alloc);
  fail_nth_allocation(1);
  EXPECT_THROW(static_cast<void>(::operator new (16, std::align_val_t{64})),
               std::bad_alloc);
  fail_nth_allocation(1);
  EXPECT_EQ(::operator new(16, std::nothrow), nullptr);
  fail_nth_allocation(1);
  EXPECT_EQ(::operator new (16, std::align_val_t{64}, std::nothrow), nullptr);
}

TEST(FailingAllocationTest, ZeroFailsNone) {
  fail_nth_allocation(3);
  fail_nth_allocation(0);
  for (int i = 0; i < 5; ++i) ::operator delete(::operator new(16));
  void* aligned = ::operator new (16, std::align_val_t{64});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 64, 0u);
  ::operator delete (aligned, std::align_val_t{64});
}

TEST(FailingAllocationTest, AnImpossibleAlignedSizeFailsInsteadOfWrapping) {
  EXPECT_EQ(::operator new (static_cast<std::size_t>(-1), std::align_val_t{64},
                            std::nothrow),
            nullptr);
}

}  // namespace
}  // namespace strata::testing
