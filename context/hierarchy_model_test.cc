// Model test of the hierarchy (context/hierarchy.h): random create, kill,
// set_parent and remove_parent sequences (fixed seeds) against a forest in
// plain std::maps, checking after every refresh each entity's parent,
// children (as a set and in attach order), depth and root, and the refresh's
// hierarchy events (refusals, cascade) in their documented order, under both
// kill rules.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "context/context.h"
#include "context/hierarchy.h"
#include "gtest/gtest.h"
#include "testing/components.h"

namespace {

using strata::entity_id;
using strata::null_entity;
using strata::refresh_event;

constexpr auto components = strata::component_signatures(
    strata::component_signature::make(strata::testing::ct::position));

using event_record = std::tuple<refresh_event::kind, entity_id, entity_id>;

// The reference: a forest keyed by id value, children in attach order.
class model_forest {
 public:
  void create(entity_id e) { parent_[e.value()] = null_entity; }
  bool alive(entity_id e) const {
    return !e.is_null() && parent_.contains(e.value());
  }
  entity_id parent(entity_id e) const {
    return alive(e) ? parent_.at(e.value()) : null_entity;
  }
  std::vector<entity_id> children(entity_id e) const {
    auto found = children_.find(e.value());
    if (!alive(e) || found == children_.end()) return {};
    return found->second;
  }
  std::size_t depth(entity_id e) const {
    std::size_t d = 0;
    for (entity_id p = parent(e); !p.is_null(); p = parent(p)) ++d;
    return d;
  }
  entity_id root(entity_id e) const {
    if (!alive(e)) return null_entity;
    while (!parent(e).is_null()) e = parent(e);
    return e;
  }
  bool ancestor_or_self(entity_id a, entity_id e) const {
    for (; !e.is_null(); e = parent(e)) {
      if (e == a) return true;
    }
    return false;
  }
  void link(entity_id child, entity_id parent) {
    if (this->parent(child) == parent) return;
    unlink(child);
    parent_[child.value()] = parent;
    if (!parent.is_null()) children_[parent.value()].push_back(child);
  }
  void erase(entity_id e) {
    unlink(e);
    parent_.erase(e.value());
    children_.erase(e.value());
  }
  std::vector<entity_id> live() const {
    std::vector<entity_id> out;
    for (const auto& [value, parent] : parent_) out.push_back(id_of(value));
    return out;
  }
  void remember(entity_id e) { ids_[e.value()] = e; }

 private:
  entity_id id_of(std::uint32_t value) const { return ids_.at(value); }
  void unlink(entity_id child) {
    const entity_id p = parent(child);
    if (p.is_null()) return;
    auto siblings = children_.find(p.value());
    if (siblings != children_.end()) {  // (gone when p died first)
      auto& list = siblings->second;
      list.erase(std::find(list.begin(), list.end(), child));
    }
    parent_[child.value()] = null_entity;
  }
  std::map<std::uint32_t, entity_id> parent_;
  std::map<std::uint32_t, std::vector<entity_id>> children_;
  std::map<std::uint32_t, entity_id> ids_;
};

struct request {
  entity_id child;
  entity_id parent;  // null: remove_parent
};

// One refresh of the model: requests in order, then the cascade.
std::vector<event_record> model_refresh(model_forest& model,
                                        const std::vector<request>& requests,
                                        std::vector<entity_id> kills,
                                        bool kills_children) {
  std::vector<event_record> events;
  for (const request& r : requests) {
    const bool refused =
        !model.alive(r.child) ||
        (!r.parent.is_null() &&
         (!model.alive(r.parent) || model.ancestor_or_self(r.child, r.parent)));
    if (refused) {
      events.emplace_back(refresh_event::kind::refused_parent, r.child,
                          r.parent);
    } else {
      model.link(r.child, r.parent);
    }
  }
  std::sort(kills.begin(), kills.end(),
            [](entity_id a, entity_id b) { return a.index() < b.index(); });
  std::set<entity_id> dying(kills.begin(), kills.end());
  for (std::size_t k = 0; k < kills.size(); ++k) {
    for (entity_id child : model.children(kills[k])) {
      if (dying.contains(child)) continue;
      if (kills_children) {
        dying.insert(child);
        kills.push_back(child);
        events.emplace_back(refresh_event::kind::killed_with_parent, child,
                            kills[k]);
      } else {
        model.link(child, null_entity);
        events.emplace_back(refresh_event::kind::detached_from_parent, child,
                            kills[k]);
      }
    }
  }
  for (entity_id e : kills) model.erase(e);
  return events;
}

template <typename Context>
void expect_same(const Context& ctx, const model_forest& model,
                 const std::vector<entity_id>& every_id) {
  ASSERT_EQ(ctx.entity_count(), model.live().size());
  for (entity_id e : every_id) {
    ASSERT_EQ(ctx.alive(e), model.alive(e));
    EXPECT_EQ(ctx.parent_of(e), model.parent(e));
    EXPECT_EQ(ctx.depth_of(e), model.alive(e) ? model.depth(e) : 0);
    EXPECT_EQ(ctx.root_of(e), model.root(e));
    std::vector<entity_id> children;
    for (entity_id c : ctx.children_of(e)) children.push_back(c);
    const std::vector<entity_id> expected = model.children(e);
    EXPECT_EQ(std::set<entity_id>(children.begin(), children.end()),
              std::set<entity_id>(expected.begin(), expected.end()));
    EXPECT_EQ(children, expected);
  }
}

template <const auto& Settings>
void run_model(std::uint32_t seed, bool kills_children) {
  auto ctx = strata::make_context<Settings>();
  std::vector<event_record> events;
  ctx.observe_refresh([&events](const refresh_event& e) {
    if (e.what == refresh_event::kind::refused_parent ||
        e.what == refresh_event::kind::killed_with_parent ||
        e.what == refresh_event::kind::detached_from_parent) {
      events.emplace_back(e.what, e.entity, e.other);
    }
  });
  model_forest model;
  std::vector<entity_id> every_id;  // dead and stale ones too
  std::mt19937 rng(seed);
  const auto below = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  // Mostly live ids, sometimes dead or stale ones, rarely the null id.
  const auto pick = [&]() -> entity_id {
    const std::vector<entity_id> live = model.live();
    const std::size_t roll = below(20);
    if (roll == 0 || every_id.empty()) return null_entity;
    if (roll < 3 || live.empty()) return every_id[below(every_id.size())];
    return live[below(live.size())];
  };
  for (int step = 0; step < 300; ++step) {
    std::vector<request> requests;
    std::vector<entity_id> kills;
    std::set<entity_id> marked;
    ctx.step([&](auto& proxy) {
      const std::size_t ops = below(12);
      for (std::size_t op = 0; op < ops; ++op) {
        switch (below(10)) {
          case 0:
          case 1: {
            entity_id e = proxy.create_entity();
            model.create(e);
            model.remember(e);
            every_id.push_back(e);
            break;
          }
          case 2: {
            entity_id e = pick();
            if (model.alive(e) && marked.insert(e).second) kills.push_back(e);
            proxy.kill_entity(e);
            break;
          }
          case 3:
          case 4: {
            entity_id e = pick();
            requests.push_back({e, null_entity});
            proxy.remove_parent(e);
            break;
          }
          default: {
            entity_id child = pick(), parent = pick();
            if (parent.is_null()) parent = child;  // a self-cycle
            requests.push_back({child, parent});
            proxy.set_parent(child, parent);
            break;
          }
        }
      }
    });
    const std::vector<event_record> expected =
        model_refresh(model, requests, kills, kills_children);
    EXPECT_EQ(events, expected) << "seed " << seed << " step " << step;
    std::size_t refusals = 0;
    for (const auto& e : expected) {
      refusals += std::get<0>(e) == refresh_event::kind::refused_parent;
    }
    EXPECT_EQ(ctx.refused_parent_changes(), refusals);
    events.clear();
    expect_same(ctx, model, every_id);
    if (::testing::Test::HasFailure()) return;
  }
}

constexpr auto killing = strata::settings()
                             .dynamic_entity_limit(8)
                             .component_signatures(components)
                             .threads(1)
                             .hierarchy(strata::kill_children);
constexpr auto detaching = strata::settings()
                               .dynamic_entity_limit(8)
                               .component_signatures(components)
                               .threads(1)
                               .hierarchy(strata::detach_children);

TEST(HierarchyModelTest, KillChildren) {
  for (std::uint32_t seed = 1; seed <= 8; ++seed)
    run_model<killing>(seed, true);
}

TEST(HierarchyModelTest, DetachChildren) {
  for (std::uint32_t seed = 1; seed <= 8; ++seed) {
    run_model<detaching>(seed, false);
  }
}

}  // namespace
