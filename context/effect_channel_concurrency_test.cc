// The effect channel under threads: a split system sends damage from every
// ship to a random ship of a roster that also holds dead and stale ids, a
// split receiver applies each ship's messages in order, for 1,000 steps at
// 8 threads; the final state and every step's drop count equal those of a
// sequential run at one thread. Small, so that ThreadSanitizer runs it
// often (--config=tsan, tag concurrency).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "context/context.h"
#include "gtest/gtest.h"

namespace {

using strata::entity_id;

struct attacker {
  std::uint32_t seed = 1;
  int attack = 1;
};
struct ledger {
  std::int64_t taken = 0;
  std::uint64_t fold = 0;
};
struct damage {
  int amount = 0;
};
// Every ship, then ids of ships killed before the run (dead, and after
// reuse stale).
struct roster {
  std::vector<entity_id> ids;
};
namespace ct {
inline constexpr auto attacker = strata::tag<::attacker>;
inline constexpr auto ledger = strata::tag<::ledger>;
}  // namespace ct
namespace mt {
inline constexpr auto damage = strata::tag<::damage>;
}  // namespace mt

struct pick {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([](attacker& a) {
      a.seed ^= a.seed << 13;
      a.seed ^= a.seed >> 17;
      a.seed ^= a.seed << 5;
    });
  }
};
struct strike {
  template <typename Data>
  void process(Data& data) const {
    const std::vector<entity_id>& ids = data.template resource<roster>().ids;
    data.for_each([&](entity_id self, const attacker& a) {
      data.send(self, ids[a.seed % ids.size()], damage{a.attack});
      if (a.seed % 3 == 0) {
        data.send(self, ids[(a.seed / 3) % ids.size()], damage{1});
      }
    });
  }
};
struct absorb {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](entity_id self, ledger& l) {
      for (const auto& m : data.messages(mt::damage, self)) {
        l.taken += m.value.amount;
        l.fold = l.fold * 1000003u + m.sender.index() * 31u +
                 static_cast<std::uint64_t>(m.value.amount);
      }
    });
  }
};
namespace st {
inline constexpr auto pick = strata::tag<::pick>;
inline constexpr auto strike = strata::tag<::strike>;
inline constexpr auto absorb = strata::tag<::absorb>;
}  // namespace st

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .resources(strata::resources(strata::resource<roster>))
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::attacker, ct::ledger)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::pick)
                .write(ct::attacker)
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::strike)
                .read(ct::attacker)
                .read_resource<roster>()
                .sends<damage>()
                .dependencies(st::pick)
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::absorb)
                .write(ct::ledger)
                .receives<damage>()
                .dependencies(st::strike)
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core())))
        .scheduler(strata::scheduler::atomic_counter);

struct outcome {
  std::vector<ledger> ledgers;
  std::vector<std::size_t> drops;
};

outcome run(std::size_t threads, strata::scheduler_kind kind) {
  constexpr int kShips = 400;
  constexpr int kSteps = 1000;
  auto ctx = strata::make_context(
      settings, strata::run_options().threads(threads).scheduler(kind));
  std::vector<entity_id> ships;
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < kShips + 40; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(
          ct::attacker, e,
          attacker{static_cast<std::uint32_t>(i * 7919 + 1), 1 + i % 5});
      proxy.add_component(ct::ledger, e);
      ships.push_back(e);
    }
  });
  std::vector<entity_id>& ids = ctx.template resource<roster>().ids;
  // The last 40 die; 20 slots are reused, so their old ids are stale.
  ctx.step([&](auto& proxy) {
    for (int i = kShips; i < kShips + 40; ++i) proxy.kill_entity(ships[i]);
  });
  ctx.step([&](auto& proxy) {
    for (int i = 0; i < 20; ++i) {
      const entity_id e = proxy.create_entity();
      proxy.add_component(ct::attacker, e,
                          attacker{static_cast<std::uint32_t>(i + 5), 2});
      proxy.add_component(ct::ledger, e);
      ships.push_back(e);
    }
  });
  ids = ships;
  outcome result;
  for (int step = 0; step < kSteps; ++step) {
    ctx.step([](auto& proxy) {
      proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
          [](auto& system, auto& data) { system.process(data); }));
    });
    result.drops.push_back(ctx.dropped_messages());
  }
  for (const entity_id e : ships) {
    result.ledgers.push_back(ctx.alive(e) ? ctx.get(ct::ledger, e) : ledger{});
  }
  return result;
}

TEST(EffectChannelConcurrencyTest, EightThreadsMatchTheSequentialScheduler) {
  const outcome expected = run(1, strata::scheduler_kind::sequential);
  const outcome got = run(8, strata::scheduler_kind::atomic_counter);
  ASSERT_EQ(got.drops, expected.drops);
  ASSERT_EQ(got.ledgers.size(), expected.ledgers.size());
  std::size_t drops = 0;
  for (std::size_t d : expected.drops) drops += d;
  EXPECT_GT(drops, 0u);
  for (std::size_t i = 0; i < got.ledgers.size(); ++i) {
    ASSERT_EQ(got.ledgers[i].taken, expected.ledgers[i].taken) << i;
    ASSERT_EQ(got.ledgers[i].fold, expected.ledgers[i].fold) << i;
  }
}

}  // namespace
