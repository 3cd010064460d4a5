// A model test of the effect channel (context/effect_channel.h).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "context/context.h"
#include "context/effect_channel_testing.h"
#include "gtest/gtest.h"

namespace {

namespace ect = strata::effect_channel_testing;
using ect::damage;
using ect::gun;
using ect::hull;
using strata::entity_id;
namespace ct {
using ect::ct::gun;
using ect::ct::hull;
}  // namespace ct
namespace mt {
using ect::mt::damage;
}  // namespace mt

// A model test: random steps create and kill entities and send from two
// systems (one split, one not) to ids drawn from every id ever made (live,
// dead, stale, null); a receiver that never splits records what it sees.
// A plain model (a list of live ids, the messages in system then sender
// order, a stable sort by target index) predicts every step's messages, in
// send order (for_each_message) and grouped by target (messages(tag, id),
// grouped on the receiver's first call), and the drop count.
struct pool {
  std::vector<entity_id> ids;        // every id ever made, and null
  std::vector<std::uint32_t> picks;  // per step: indices into ids
};
struct shot {
  std::uint32_t nth = 0;  // which pick this entity sends, each step
};
struct witness {
  std::vector<std::pair<entity_id, entity_id>> seen;  // (target, sender)
  std::vector<int> amounts;
  // The same messages read per target, targets by ascending index.
  std::vector<std::pair<entity_id, entity_id>> grouped;
  std::vector<int> grouped_amounts;
  template <typename Data>
  void process(Data& data) {
    seen.clear();
    amounts.clear();
    grouped.clear();
    grouped_amounts.clear();
    data.for_each_message(mt::damage, [&](const strata::message<damage>& m) {
      seen.push_back({m.target, m.sender});
      amounts.push_back(m.value.amount);
    });
    std::vector<entity_id> targets;
    for (const auto& [target, sender] : seen) targets.push_back(target);
    std::sort(targets.begin(), targets.end(),
              [](entity_id a, entity_id b) { return a.index() < b.index(); });
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (const entity_id target : targets) {
      for (const auto& m : data.messages(mt::damage, target)) {
        grouped.push_back({m.target, m.sender});
        grouped_amounts.push_back(m.value.amount);
      }
    }
  }
};
struct split_sender {
  template <typename Data>
  void process(Data& data) const {
    const pool& p = data.template resource<pool>();
    data.for_each([&](entity_id self, const shot& s) {
      data.send(self, p.ids[p.picks[s.nth % p.picks.size()]], damage{1});
      data.send(self, p.ids[p.picks[(s.nth + 1) % p.picks.size()]], damage{2});
    });
  }
};
struct whole_sender {
  template <typename Data>
  void process(Data& data) const {
    const pool& p = data.template resource<pool>();
    for (std::size_t i = p.picks.size(); i-- > 0;) {
      data.send(p.ids.front(), p.ids[p.picks[i]], damage{3});
    }
  }
};
namespace st {
inline constexpr auto witness = strata::tag<::witness>;
inline constexpr auto split_sender = strata::tag<::split_sender>;
inline constexpr auto whole_sender = strata::tag<::whole_sender>;
}  // namespace st
namespace ct {
inline constexpr auto shot = strata::tag<::shot>;
}  // namespace ct

constexpr auto model_settings =
    strata::settings()
        .allow_inner_parallelism()
        .resources(strata::resources(strata::resource<pool>))
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::shot)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::split_sender)
                .read(ct::shot)
                .read_resource<pool>()
                .sends<damage>()
                .parallelism(
                    strata::inner_parallelism::split_evenly_per_core()),
            strata::system_signature::make(st::whole_sender)
                .read_resource<pool>()
                .sends<damage>()
                .parallelism(strata::inner_parallelism::none()),
            strata::system_signature::make(st::witness)
                .receives<damage>()
                .dependencies(st::split_sender, st::whole_sender)
                .parallelism(strata::inner_parallelism::none())))
        .scheduler(strata::scheduler::atomic_counter);

TEST(EffectChannelTest, ModelOfSendsToLiveDeadAndStaleIds) {
  for (const std::size_t threads : {1u, 3u, 8u}) {
    auto ctx = strata::make_context(model_settings,
                                    strata::run_options().threads(threads));
    std::mt19937 random(static_cast<std::uint32_t>(threads));
    pool& p = ctx.template resource<pool>();
    p.ids.push_back(strata::null_entity);
    std::vector<entity_id> live;  // the model's, in creation order
    std::vector<std::pair<entity_id, std::uint32_t>> shots;
    for (int step = 0; step < 60; ++step) {
      // Critical operations: the model applies them as the refresh will.
      ctx.step([&](auto& proxy) {
        const int creations = static_cast<int>(random() % 40);
        for (int i = 0; i < creations; ++i) {
          const entity_id e = proxy.create_entity();
          const std::uint32_t nth = random() % 64;
          proxy.add_component(ct::shot, e, shot{nth});
          p.ids.push_back(e);
          live.push_back(e);
        }
        for (int i = 0; i < 15 && !live.empty(); ++i) {
          const std::size_t k = random() % live.size();
          proxy.kill_entity(live[k]);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        }
      });
      // p.ids.front() stays the null id: whole_sender's sender is null.
      p.picks.clear();
      for (int i = 0; i < 64; ++i) {
        p.picks.push_back(static_cast<std::uint32_t>(random() % p.ids.size()));
      }
      // The model's messages: split_sender by sender index, then
      // whole_sender in its send order.
      std::vector<entity_id> senders = live;
      std::sort(senders.begin(), senders.end(),
                [](entity_id a, entity_id b) { return a.index() < b.index(); });
      std::vector<std::pair<entity_id, entity_id>> sent;  // (target, sender)
      std::vector<int> amounts;
      const auto is_live = [&](entity_id id) {
        return std::find(live.begin(), live.end(), id) != live.end();
      };
      std::size_t dropped = 0;
      const auto send = [&](entity_id sender, entity_id target, int amount) {
        if (!is_live(target)) {
          ++dropped;
          return;
        }
        sent.push_back({target, sender});
        amounts.push_back(amount);
      };
      for (const entity_id s : senders) {
        const std::uint32_t nth = ctx.get(ct::shot, s).nth;
        send(s, p.ids[p.picks[nth % 64]], 1);
        send(s, p.ids[p.picks[(nth + 1) % 64]], 2);
      }
      for (std::size_t i = 64; i-- > 0;)
        send(p.ids.front(), p.ids[p.picks[i]], 3);
      std::vector<std::size_t> order(sent.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) {
                         return sent[a].first.index() < sent[b].first.index();
                       });
      ctx.step([&](auto& proxy) {
        ect::run_systems(proxy);
        const witness& w = proxy.system(st::witness);
        ASSERT_EQ(w.seen, sent) << "step " << step;
        ASSERT_EQ(w.amounts, amounts) << "step " << step;
        ASSERT_EQ(w.grouped.size(), order.size()) << "step " << step;
        for (std::size_t i = 0; i < order.size(); ++i) {
          ASSERT_EQ(w.grouped[i], sent[order[i]])
              << "step " << step << " " << i;
          ASSERT_EQ(w.grouped_amounts[i], amounts[order[i]]);
        }
      });
      ASSERT_EQ(ctx.dropped_messages(), dropped) << "step " << step;
    }
  }
}

}  // namespace
