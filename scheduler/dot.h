// The system graph in Graphviz DOT: what a system signature list declares,
// drawn.
//
//   constexpr auto systems = strata::system_signatures(...);
//   strata::dot_options options;                  // all optional
//   options.graph_name = "game";
//   options.comment = "The systems of my game";
//   std::string dot = strata::system_graph_dot(systems, options);
//   // dot -Tpng graph.dot -o graph.png
//
// One node per system, in system id order, labelled with its name, the
// components it reads and writes (in declaration order), its output type if
// it has one (such nodes get a second fill color) and its inner-parallelism
// strategy as the strategy describes itself (describe_strategy(), see
// scheduler/inner_parallelism.h: a strategy without describe() shows as
// "custom strategy", so no strategy can break the graph). Then one edge per
// direct dependency, from the dependency to the system that depends on it,
// grouped by dependent system in id order. For example (node style
// abridged):
//
//   digraph systems {
//     rankdir=LR;
//     node [shape=box, style="rounded,filled", fillcolor="#e8eefc", ...];
//     push [label="push\nwrites: velocity\nsplit: none"];
//     move [label="move\nreads: velocity\nsplit: context default"];
//     push -> move;
//   }
//
// Names: a type's name is name_of<T>() (meta/type_name.h): T::name when
// declared, else the compiler's spelling of the type. A name that is a
// plain DOT identifier ([A-Za-z_][A-Za-z0-9_]*, not a DOT keyword) is the
// node id as is; any other (a "ns::type", a name with spaces or quotes) is
// written as a quoted id, with `"` and `\` escaped, as are all label texts.
// Two systems with the same name would share one node: give them distinct
// names.
//
// Cost: O(systems + dependencies) string appends, at run time (strategies
// may carry run-time numbers). Thread-safe; nothing here touches a context.
#ifndef STRATA_SCHEDULER_DOT_H_
#define STRATA_SCHEDULER_DOT_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "meta/type_list.h"
#include "meta/type_name.h"
#include "scheduler/dag.h"
#include "scheduler/inner_parallelism.h"

namespace strata {

struct dot_options {
  // The graph's id (quoted when it is not a plain identifier).
  std::string graph_name = "systems";
  // Written before the graph as `// ` comment lines, one per line of the
  // text (none when empty).
  std::string comment;
};

namespace dot_internal {

// Appends `text` escaped for a DOT quoted string (`"`, `\` and newlines).
inline void append_escaped(std::string& out, std::string_view text) {
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
}

inline bool is_plain_id(std::string_view name) {
  auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (name.empty() || !letter(name.front())) return false;
  std::string lower;
  for (char c : name) {
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
    lower += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  for (std::string_view keyword :
       {"node", "edge", "graph", "digraph", "subgraph", "strict"}) {
    if (lower == keyword) return false;  // DOT keywords ignore case
  }
  return true;
}

// `name` as a DOT id: as is when plain, else quoted.
inline void append_id(std::string& out, std::string_view name) {
  if (is_plain_id(name)) {
    out += name;
    return;
  }
  out += '"';
  append_escaped(out, name);
  out += '"';
}

template <typename... Ts>
void append_names(std::string& out, type_list<Ts...>) {
  constexpr std::array<std::string_view, sizeof...(Ts)> names = {
      name_of<Ts>()...};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    append_escaped(out, names[i]);
  }
}

template <typename List, std::size_t I>
void append_node(std::string& out, const List& systems) {
  using signature = typename List::template signature_at<I>;
  out += "  ";
  append_id(out, name_of<typename signature::system_type>());
  out += " [label=\"";
  append_escaped(out, name_of<typename signature::system_type>());
  if constexpr (size_v<typename signature::read_types> != 0) {
    out += "\\nreads: ";
    append_names(out, typename signature::read_types{});
  }
  if constexpr (size_v<typename signature::write_types> != 0) {
    out += "\\nwrites: ";
    append_names(out, typename signature::write_types{});
  }
  if constexpr (signature::has_output) {
    out += "\\noutput: ";
    append_escaped(out, name_of<typename signature::output_type>());
  }
  out += "\\nsplit: ";
  append_escaped(out,
                 describe_strategy(
                     systems.template signature<I>().parallelism_strategy()));
  out += '"';
  if constexpr (signature::has_output) out += ", fillcolor=\"#fff3d6\"";
  out += "];\n";
}

template <typename List, std::size_t I, typename Names>
void append_edges(std::string& out, const Names& names) {
  for (std::size_t dependency : List::template dependencies_of<I>) {
    out += "  ";
    append_id(out, names[dependency]);
    out += " -> ";
    append_id(out, names[I]);
    out += ";\n";
  }
}

inline void append_comment(std::string& out, std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    out += line.empty() ? "//" : "// ";
    out += line;
    out += '\n';
    text.remove_prefix(std::min(end + 1, text.size()));
  }
}

}  // namespace dot_internal

// The DOT text of the system graph (see the top of this file).
template <typename... Parts>
std::string system_graph_dot(const ::strata::systems<Parts...>& systems,
                             const dot_options& options = {}) {
  using list = ::strata::systems<Parts...>;
  std::string out;
  dot_internal::append_comment(out, options.comment);
  out += "digraph ";
  dot_internal::append_id(out, options.graph_name);
  out +=
      " {\n"
      "  rankdir=LR;\n"
      "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#e8eefc\", "
      "fontname=\"Helvetica\", fontsize=10];\n";
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    [[maybe_unused]] constexpr std::array<std::string_view, list::count> names =
        {name_of<typename list::template system_at<I>>()...};
    (dot_internal::append_node<list, I>(out, systems), ...);
    (dot_internal::append_edges<list, I>(out, names), ...);
  }
  (std::make_index_sequence<list::count>{});
  out += "}\n";
  return out;
}

}  // namespace strata

#endif  // STRATA_SCHEDULER_DOT_H_
