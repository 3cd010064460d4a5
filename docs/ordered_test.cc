// The snippets of docs/guide/12-ordered-iteration.md, compiled and run. The
// text between `// --- snippet: NAME ---` and `// --- end snippet ---` is
// the page's code block NAME (docs:check_snippets_test).
#include <vector>

#include "gtest/gtest.h"
#include "strata.h"

namespace {

struct sprite {
  int depth = 0;  // draw order: back to front
  char name = ' ';
};
struct layer {
  int value = 0;
  friend bool operator<(const layer& a, const layer& b) {
    return a.value < b.value;
  }
};
namespace ct {
inline constexpr auto sprite = strata::tag<::sprite>;
inline constexpr auto layer = strata::tag<::layer>;
}  // namespace ct

// --- snippet: draw ---
// Draws back to front: visits the sprites by ascending depth.
struct draw {
  template <typename Data>
  void process(Data& data) const {
    data.for_each([&](const sprite& s) { data.output().push_back(s.name); });
  }
};
// --- end snippet ---
struct stack {
  template <typename Data>
  void process(Data&) const {}
};
namespace st {
inline constexpr auto draw = strata::tag<::draw>;
inline constexpr auto stack = strata::tag<::stack>;
}  // namespace st

// --- snippet: settings ---
constexpr auto settings =
    strata::settings()
        .allow_inner_parallelism()
        .component_signatures(strata::component_signatures(
            strata::component_signature::make(ct::sprite),
            strata::component_signature::make(ct::layer)))
        .system_signatures(strata::system_signatures(
            strata::system_signature::make(st::draw)
                .read(ct::sprite)
                .output<std::vector<char>>()
                // by one member; ties by entity index
                .ordered_by(ct::sprite,
                            strata::order_by_member<&sprite::depth>),
            strata::system_signature::make(st::stack)
                .write(ct::layer)
                // by layer's own operator<
                .ordered_by(ct::layer)));
// --- end snippet ---

TEST(OrderedGuide, Everything) {
  auto ctx = strata::make_context<settings>();
  // --- snippet: run ---
  strata::entity_id b;
  ctx.step([&](auto& proxy) {
    for (auto [depth, name] :
         {std::pair{2, 'a'}, {1, 'b'}, {3, 'c'}, {1, 'd'}}) {
      const strata::entity_id e = proxy.create_entity();
      proxy.add_component(ct::sprite, e, depth, name);
      if (name == 'b') b = e;
    }
  });
  ctx.step([&](auto& proxy) {
    proxy.get_component(ct::sprite, b).depth = 5;  // b moves to the front
    proxy.execute_systems()(strata::execution_adapter::all().for_subtasks(
        [](auto& system, auto& data) { system.process(data); }));
  });
  std::vector<char> drawn;
  ctx.step([&](auto& proxy) {
    proxy.for_system_outputs(
        st::draw, [&](auto&, const std::vector<char>& part) {
          drawn.insert(drawn.end(), part.begin(), part.end());
        });
  });
  EXPECT_EQ(drawn, (std::vector<char>{'d', 'a', 'c', 'b'}));
  // --- end snippet ---
}

}  // namespace
