// Inner parallelism: how each strategy splits one system into subtasks.
//
// Eight systems read the same 1000 entities, each with another strategy
// from strata::ips (strategies) and strata::ipc (composers). After one step
// the program prints, per system, how the strategy describes itself and how
// many subtasks the system ran (instance(st).subtask_count()). The context
// has 4 threads, so split_evenly_per_core() means 4.
//
// inner_parallelism::automatic() is the default (a signature without
// .parallelism(...)): it splits by the system's measured cost, one subtask
// while the cost is unknown (the first run), up to one per thread, and large
// work in up to 4 slices per thread. The last lines show the same world with
// hand_off::always (automatic splits as for unbounded work: 4 slices per
// thread) and with inner parallelism disallowed (one subtask each).
//
//   bazel run //examples:inner_parallelism
#include <atomic>
#include <cstdio>
#include <string>

#include "strata.h"

struct value {
  int v;
};
namespace ct {
inline constexpr auto value = strata::tag<::value>;
}  // namespace ct

// One system type per strategy; they only read, so no two of them race.
template <int I>
// The subtasks of one system run at once on the same system object, which
// they receive as const: each sums its own slice locally and adds the result
// to a mutable atomic. (A plain member `sum += x.v` does not compile there.)
struct reader {
  mutable std::atomic<long long> sum{0};
  template <typename Data>
  void process(Data& data) const {
    long long partial = 0;
    data.for_each([&](const value& x) { partial += x.v; });
    sum.fetch_add(partial, std::memory_order_relaxed);
  }
};
template <int I>
inline constexpr auto st_reader = strata::tag<reader<I>>;

constexpr auto kNone = strata::inner_parallelism::none();
constexpr auto kEvenly3 = strata::inner_parallelism::split_evenly(3);
constexpr auto kPerCore = strata::inner_parallelism::split_evenly_per_core();
constexpr auto kEvery300 = strata::inner_parallelism::split_every_n(300);
// Per core from 5000 entities up, one subtask below: here, one.
constexpr auto kNoneBelow5000 =
    strata::inner_parallelism_composer::none_below_threshold(
        5000, strata::inner_parallelism::split_evenly_per_core());
// Two subtasks from 500 entities up, one below: here, two.
constexpr auto kTwoFrom500 =
    strata::inner_parallelism_composer::fixed_threshold(
        500, strata::inner_parallelism::split_evenly(2),
        strata::inner_parallelism::none());
constexpr auto kAutomatic = strata::inner_parallelism::automatic();

constexpr auto systems =
    strata::system_signatures(strata::system_signature::make(st_reader<0>)
                                  .read(ct::value)
                                  .parallelism(kNone),
                              strata::system_signature::make(st_reader<1>)
                                  .read(ct::value)
                                  .parallelism(kEvenly3),
                              strata::system_signature::make(st_reader<2>)
                                  .read(ct::value)
                                  .parallelism(kPerCore),
                              strata::system_signature::make(st_reader<3>)
                                  .read(ct::value)
                                  .parallelism(kEvery300),
                              strata::system_signature::make(st_reader<4>)
                                  .read(ct::value)
                                  .parallelism(kNoneBelow5000),
                              strata::system_signature::make(st_reader<5>)
                                  .read(ct::value)
                                  .parallelism(kTwoFrom500),
                              strata::system_signature::make(st_reader<6>)
                                  .read(ct::value)
                                  .parallelism(kAutomatic),
                              strata::system_signature::make(st_reader<7>)
                                  .read(ct::value));  // the default

constexpr auto base = strata::settings()
                          .fixed_entity_limit<1000>()
                          .component_signatures(strata::component_signatures(
                              strata::component_signature::make(ct::value)))
                          .system_signatures(systems)
                          .scheduler(strata::scheduler::atomic_counter)
                          .threads(4);

// Creates 1000 entities, runs every system once, returns the context.
template <typename Settings>
auto run_once(const Settings& settings) {
  auto ctx = strata::make_context(settings);
  ctx.step([](auto& proxy) {
    proxy.create_entities(1000, [](value& x) { x.v = 1; });
  });
  ctx.step([](auto& proxy) {
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  return ctx;
}

template <int I, typename Context>
std::size_t subtasks(Context& ctx) {
  std::size_t count = 0;
  ctx.step([&](auto& proxy) {
    count = proxy.instance(st_reader<I>).subtask_count();
  });
  return count;
}

int main() {
  auto ctx = run_once(base.allow_inner_parallelism());
  std::printf("%zu threads, 1000 entities\n", ctx.thread_count());
  auto row = [](const std::string& described, std::size_t count) {
    std::printf("%-52s %zu subtask(s)\n", described.c_str(), count);
  };
  row(kNone.describe(), subtasks<0>(ctx));
  row(kEvenly3.describe(), subtasks<1>(ctx));
  row(kPerCore.describe(), subtasks<2>(ctx));
  row(kEvery300.describe(), subtasks<3>(ctx));
  row(kNoneBelow5000.describe(), subtasks<4>(ctx));
  row(kTwoFrom500.describe(), subtasks<5>(ctx));
  row(kAutomatic.describe() + " (first run: cost unknown)", subtasks<6>(ctx));
  row("no .parallelism(): automatic", subtasks<7>(ctx));

  auto always = run_once(
      base.allow_inner_parallelism().hand_off(strata::hand_off::always));
  row("automatic, hand_off::always", subtasks<6>(always));

  auto disallowed = run_once(base.disallow_inner_parallelism());
  row("split_evenly(3), inner parallelism disallowed", subtasks<1>(disallowed));
}
