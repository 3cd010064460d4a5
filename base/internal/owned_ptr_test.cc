#include "base/internal/owned_ptr.h"

#include <utility>

#include "gtest/gtest.h"

namespace strata::base_internal {
namespace {

// Counts its destructions, to tell delete from delete[] and from a leak.
struct counted {
  static inline int destroyed = 0;
  int value = 0;
  counted() = default;
  explicit counted(int v) : value(v) {}
  ~counted() { ++destroyed; }
};

class OwnedPtrTest : public ::testing::Test {
 protected:
  void SetUp() override { counted::destroyed = 0; }
};

TEST_F(OwnedPtrTest, DeletesTheObjectItOwnsOnce) {
  {
    owned_ptr<counted> p = make_owned<counted>(7);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->value, 7);
    EXPECT_EQ((*p).value, 7);
    EXPECT_EQ(counted::destroyed, 0);
  }
  EXPECT_EQ(counted::destroyed, 1);
}

TEST_F(OwnedPtrTest, DefaultAndNullAreEmpty) {
  owned_ptr<counted> a;
  owned_ptr<counted> b = nullptr;
  EXPECT_FALSE(a);
  EXPECT_TRUE(a == nullptr);
  EXPECT_TRUE(nullptr == b);
  EXPECT_EQ(a.get(), nullptr);
}

TEST_F(OwnedPtrTest, MoveTransfersOwnershipAndEmptiesTheSource) {
  owned_ptr<counted> a = make_owned<counted>(1);
  counted* const raw = a.get();
  owned_ptr<counted> b(std::move(a));
  EXPECT_TRUE(a == nullptr);  // NOLINT(bugprone-use-after-move): the contract
  EXPECT_EQ(b.get(), raw);
  owned_ptr<counted> c = make_owned<counted>(2);
  c = std::move(b);  // deletes c's object, takes b's
  EXPECT_EQ(counted::destroyed, 1);
  EXPECT_EQ(c.get(), raw);
  EXPECT_TRUE(b == nullptr);  // NOLINT(bugprone-use-after-move)
}

TEST_F(OwnedPtrTest, ResetDeletesTheOldObjectAndReleaseDoesNot) {
  owned_ptr<counted> p = make_owned<counted>(1);
  p.reset(new counted(2));
  EXPECT_EQ(counted::destroyed, 1);
  EXPECT_EQ(p->value, 2);
  counted* const raw = p.release();
  EXPECT_TRUE(p == nullptr);
  EXPECT_EQ(counted::destroyed, 1);
  delete raw;
  p.reset();
  EXPECT_EQ(counted::destroyed, 2);
}

TEST_F(OwnedPtrTest, AnArrayIsDeletedWholeAndIndexed) {
  {
    owned_ptr<counted[]> a(new counted[3]);
    a[1].value = 5;
    EXPECT_EQ(a.get()[1].value, 5);
    EXPECT_EQ(counted::destroyed, 0);
  }
  EXPECT_EQ(counted::destroyed, 3);
}

// A type complete only after the holder's declaration, as a pimpl's state is.
struct later;
struct holder {
  holder();
  ~holder();
  owned_ptr<later> state;
};
struct later {
  counted inside;
};
holder::holder() : state(make_owned<later>()) {}
holder::~holder() = default;

TEST_F(OwnedPtrTest, HoldsATypeIncompleteWhereItIsDeclared) {
  { holder h; }
  EXPECT_EQ(counted::destroyed, 1);
}

}  // namespace
}  // namespace strata::base_internal
