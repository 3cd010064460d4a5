// Test-only: the binary's global operator new fails at the allocation a
// test picks (the throwing forms throw std::bad_alloc, the nothrow forms
// return nullptr), so a test can check that a container a failed growth
// promises to leave as it was really is.
//
//   strata::testing::fail_nth_allocation(1);  // the next allocation throws
//   EXPECT_THROW(v.push_back(5), std::bad_alloc);
//   strata::testing::fail_nth_allocation(0);  // none throws again
//
// Why not an impossible size (1 << 62): the sanitizer runtimes' allocators
// abort on it instead of throwing, so the test would fail under TSan and
// ASan for a reason that is not the code's.
//
// The replaced operators (testing/internal/replaced_new.h, shared with
// //testing:allocation_counter) must live in the executable itself so that
// they take precedence over a sanitizer runtime's: give every test that
// links this `linkstatic = True`. It cannot share a binary with the
// allocation counter (the link fails with a duplicate definition).
//
// Thread-safety: the count is atomic, so allocations of other threads are
// counted toward the n-th without a data race; a test that wants to pick
// one allocation of its own makes it while no other thread allocates.
#ifndef STRATA_TESTING_FAILING_ALLOCATION_H_
#define STRATA_TESTING_FAILING_ALLOCATION_H_

namespace strata::testing {

// The n-th allocation from now throws std::bad_alloc (n >= 1), once; with
// n = 0, none does (the state a test binary starts in).
void fail_nth_allocation(int n) noexcept;

}  // namespace strata::testing

#endif  // STRATA_TESTING_FAILING_ALLOCATION_H_
