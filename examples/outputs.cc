// Outputs and previous outputs: systems that produce results instead of
// writing components.
//
// `spotter` finds the entities with y > 4. Its signature declares
// .output<std::vector<strata::entity_id>>(): every subtask gets its own
// vector (reset before every run), so subtasks never share a container.
// `counter` depends on spotter and reads its outputs with
// data.for_previous_outputs(st::spotter, ...). After the run, the step reads
// both with proxy.for_system_outputs(...). A
// execution_adapter::t(...).detailed_instance adapter merges spotter's outputs
// right after its subtasks ran.
//
//   bazel run //examples:outputs
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "strata.h"

struct position {
  float x, y;
};
namespace ct {
inline constexpr auto position = strata::tag<::position>;
}  // namespace ct

struct spotter {
  std::size_t merged = 0;  // filled by the detailed adapter
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](strata::entity_id e, const position& p) {
      if (p.y > 4) data.output().push_back(e);
    });
  }
};

struct counter {
  template <typename Data>
  void process(Data& data) const {
    data.for_previous_outputs(
        strata::tag<spotter>,
        [&](const spotter&, const std::vector<strata::entity_id>& found) {
          data.output() += static_cast<int>(found.size());
        });
  }
};

namespace st {
inline constexpr auto spotter = strata::tag<::spotter>;
inline constexpr auto counter = strata::tag<::counter>;
}  // namespace st

constexpr auto systems = strata::system_signatures(
    strata::system_signature::make(st::spotter)
        .read(ct::position)
        .parallelism(strata::inner_parallelism::split_evenly(3))
        .output<std::vector<strata::entity_id>>(),
    strata::system_signature::make(st::counter)
        .dependencies(st::spotter)
        .output<int>());

constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::position)))
        .system_signatures(systems)
        .scheduler(strata::scheduler::atomic_counter)
        .threads(2);

int main() {
  auto ctx = strata::make_context<settings>();
  ctx.step([](auto& proxy) {
    for (int i = 0; i < 10; ++i) {
      proxy.add_component(ct::position, proxy.create_entity(), 0.f,
                          static_cast<float>(i));
    }
  });
  for (int run = 1; run <= 2; ++run) {
    ctx.step([&](auto& proxy) {
      proxy.execute_systems()(
          strata::execution_adapter::t(st::spotter)
              .detailed_instance([](auto& instance, auto& executor) {
                executor.for_subtasks(
                    [](auto& system, auto& data) { system.process(data); });
                std::size_t total = 0;
                instance.for_outputs(
                    [&](auto&, const auto& found) { total += found.size(); });
                instance.system().merged = total;
              }),
          strata::execution_adapter::all().for_subtasks(
              [](auto& system, auto& data) { system.process(data); }));

      std::printf("run %d\n", run);
      int subtask = 0;
      proxy.for_system_outputs(
          st::spotter,
          [&](const spotter&, const std::vector<strata::entity_id>& found) {
            std::printf("  spotter subtask %d found:", subtask++);
            for (strata::entity_id e : found) {
              std::printf(" %s", to_string(e).c_str());
            }
            std::printf("\n");
          });
      std::printf("  merged by the detailed adapter: %zu\n",
                  proxy.system(st::spotter).merged);
      proxy.for_system_outputs(st::counter, [](counter&, int n) {
        std::printf("  counter's output: %d\n", n);
      });
    });
  }
}
