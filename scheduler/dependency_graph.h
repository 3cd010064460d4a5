// The dependency graph of N systems, as an adjacency matrix, with the
// constexpr algorithms the compile-time DAG needs.
//
//   strata::dependency_graph<3> g;
//   g.depends[1][0] = true;               // node 1 depends on node 0
//   g.depends[2][1] = true;
//   static_assert(g.transitive_closure()[0][2]);   // 0 runs before 2
//   static_assert(g.first_node_on_cycle() == 3);   // acyclic
//
// `depends[i][j]` says node i depends directly on node j (j must finish
// before i starts). On that matrix:
//   * transitive_closure(): before[a][b], a must finish before b starts
//     (Warshall's reachability over rows of 64-bit words), O(N^3 / 64);
//   * first_node_on_cycle(): the lowest node that reaches itself, or N when
//     the graph is acyclic, O(N^3 / 64); first_node_on_cycle(before) reads
//     it from a closure already computed, O(N);
//   * cycle_through(node): one shortest cycle through a node on a cycle, as
//     the list of nodes in dependency order (each depends on the next, the
//     last on the first), O(N^2); for a node on no cycle, size 0;
//   * cycles(): one shortest cycle through the lowest node of each group of
//     nodes that reach each other (strongly connected), lowest first, so
//     every independent cycle is named once, O(N^3);
//   * topological_order(): Kahn's algorithm taking the lowest ready index
//     first, so the order is the declaration order wherever dependencies
//     allow, O(N^2); on a cycle the remaining nodes follow in index order;
//   * dependency_count / dependent_count of a node, O(N).
//
// Everything is constexpr and meant for constant expressions: system
// signature lists (scheduler/dag.h) compute the closure once per list and
// check cycles on it. The matrix is N^2 bools; the closure works on words,
// a row at a time, because the compiler's constant evaluator is slow and
// runs it in every unit that defines a list
// (//benchmarks/compile:large_64x32, scheduler:large_signatures_test).
#ifndef STRATA_SCHEDULER_DEPENDENCY_GRAPH_H_
#define STRATA_SCHEDULER_DEPENDENCY_GRAPH_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "base/internal/standard_parts.h"

namespace strata {

template <std::size_t N>
struct dependency_graph {
  using matrix = std::array<std::array<bool, N>, N>;
  matrix depends{};

  // The nodes of a cycle, each depending on the next and the last on the
  // first; `size` of them are valid.
  struct cycle {
    std::array<std::size_t, N> nodes{};
    std::size_t size = 0;
  };

  constexpr matrix transitive_closure() const {
    // Warshall's algorithm over rows of 64-bit words: row i of `reach` is
    // the set of nodes that run after i; when k is in it, everything after
    // k is too, an OR of N/64 words (rounded up) instead of N bools.
    std::array<std::array<word, kWords>, N> reach{};
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < N; ++j) {
        if (depends[j][i]) reach[i][j / 64] |= word{1} << (j % 64);
      }
    }
    for (std::size_t k = 0; k < N; ++k) {
      const word k_bit = word{1} << (k % 64);
      for (std::size_t i = 0; i < N; ++i) {
        if ((reach[i][k / 64] & k_bit) == 0) continue;
        for (std::size_t w = 0; w < kWords; ++w) reach[i][w] |= reach[k][w];
      }
    }
    matrix before{};
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < N; ++j) {
        before[i][j] = ((reach[i][j / 64] >> (j % 64)) & 1) != 0;
      }
    }
    return before;
  }

  constexpr std::size_t first_node_on_cycle() const {
    return first_node_on_cycle(transitive_closure());
  }
  // The same, read from a closure already computed (a signature list keeps
  // its own: scheduler/dag.h).
  static constexpr std::size_t first_node_on_cycle(const matrix& before) {
    for (std::size_t i = 0; i < N; ++i) {
      if (before[i][i]) return i;
    }
    return N;
  }

  // Breadth-first along dependency edges from `start`; the first node found
  // that depends on `start` closes the shortest cycle, read back through the
  // parents.
  constexpr cycle cycle_through(std::size_t start) const {
    std::array<std::size_t, N> parent{};
    std::array<bool, N> seen{};
    std::array<std::size_t, N> queue{};
    std::size_t head = 0, tail = 0;
    queue[tail++] = start;
    seen[start] = true;
    while (head < tail) {
      const std::size_t node = queue[head++];
      if (depends[node][start]) return path_to(node, start, parent);
      for (std::size_t next = 0; next < N; ++next) {
        if (depends[node][next] && !seen[next]) {
          seen[next] = true;
          parent[next] = node;
          queue[tail++] = next;
        }
      }
    }
    return {};
  }

  // `count` cycles, one per strongly connected group of nodes.
  struct cycle_list {
    std::array<cycle, N> cycles{};
    std::size_t count = 0;
  };
  constexpr cycle_list cycles() const {
    const matrix before = transitive_closure();
    cycle_list found;
    for (std::size_t node = 0; node < N; ++node) {
      if (!before[node][node]) continue;
      bool lowest_of_group = true;
      for (std::size_t other = 0; other < node; ++other) {
        lowest_of_group &= !(before[node][other] && before[other][node]);
      }
      if (lowest_of_group) found.cycles[found.count++] = cycle_through(node);
    }
    return found;
  }

  constexpr std::size_t dependency_count(std::size_t node) const {
    std::size_t count = 0;
    for (std::size_t j = 0; j < N; ++j) count += depends[node][j];
    return count;
  }
  constexpr std::size_t dependent_count(std::size_t node) const {
    std::size_t count = 0;
    for (std::size_t i = 0; i < N; ++i) count += depends[i][node];
    return count;
  }

  constexpr std::array<std::size_t, N> topological_order() const {
    std::array<std::size_t, N> order{};
    std::array<std::size_t, N> remaining{};
    std::array<bool, N> placed{};
    for (std::size_t i = 0; i < N; ++i) remaining[i] = dependency_count(i);
    std::size_t filled = 0;
    while (filled < N) {
      const std::size_t next = lowest_ready(remaining, placed);
      if (next == N) {  // cycle: place the rest as declared
        for (std::size_t i = 0; i < N; ++i) {
          if (!placed[i]) order[filled++] = i, placed[i] = true;
        }
        break;
      }
      placed[next] = true;
      order[filled++] = next;
      for (std::size_t i = 0; i < N; ++i) {
        if (depends[i][next]) --remaining[i];
      }
    }
    return order;
  }

 private:
  using word = std::uint64_t;
  static constexpr std::size_t kWords = (N + 63) / 64;

  // start -> ... -> last, read back from last through the BFS parents.
  static constexpr cycle path_to(std::size_t last, std::size_t start,
                                 const std::array<std::size_t, N>& parent) {
    cycle found;
    for (std::size_t node = last; node != start; node = parent[node]) {
      found.nodes[found.size++] = node;
    }
    found.nodes[found.size++] = start;
    std::reverse(found.nodes.begin(), found.nodes.begin() + found.size);
    return found;
  }

  static constexpr std::size_t lowest_ready(
      const std::array<std::size_t, N>& remaining,
      const std::array<bool, N>& placed) {
    for (std::size_t i = 0; i < N; ++i) {
      if (!placed[i] && remaining[i] == 0) return i;
    }
    return N;
  }
};

}  // namespace strata

#endif  // STRATA_SCHEDULER_DEPENDENCY_GRAPH_H_
