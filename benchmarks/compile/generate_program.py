#!/usr/bin/env python3
"""Writes a Strata user program of a given size, for measuring compile cost.

The program has the shape of a small game: N components (a few floats and an
int each; every fourth one in a sparse set, the rest in contiguous SoA
buffers), M systems that each write one component and read two others
through typed `data.for_each`, with exactly the dependencies that make the
signature list race-free (a system depends on every earlier system it
conflicts with), and a main() that creates entities, runs three steps, and fails unless every
system ran on every entity (so the program is a test as well).

  generate_program.py --components 8 --systems 12 [--by_value] > game.cc
  generate_program.py --components 8 --systems 12 --misuse data_race > bad.cc

--by_value makes the context with make_context(settings) instead of
make_context<settings>(), to compare the two.

--by_value_driver passes the settings by value through a function
template, `template <typename Settings, typename Frame> int run(Settings
settings, Frame frame)`, after giving them a thread count read from the
command line, as a driver that takes `--threads` does (the by-value
variants of the misuses). main() writes the frame's step function and hands
it to the driver, as guide page 1 advises: a lambda written inside the
driver's template is named after the settings type, which GCC spells in
every note that names the lambda.

--run_time_choice offers both schedulers at run time, as a program with a
--scheduler flag does: the settings (a named constant) choose
atomic_counter, and strata::run_options().scheduler(...) picks sequential
when the program's first argument is "sequential". One context type serves
both, so it costs about what one scheduler does.

--hand_written writes the same game without Strata, as a hand-written
program would be: a std::vector per component, one plain loop per system,
run in declaration order (an order the dependencies allow). It does the
same work and checks the same total; its compile cost is the baseline
beside Strata's in BENCHMARKS.md (what the components and loops cost any
program, and a yardstick for the host's speed at the time).

--feature NAME uses one of Strata's optional features in the same game, to
measure what it costs when used (`--feature list` prints the names):
messages (s0 sends each of its entities a message, the last system applies
them), change_filter (the last system visits only entities whose read
component changed: all of them, since an earlier system writes it every
frame), hooks (an on_add hook on c0 counts into a resource), hierarchy
(.hierarchy(kill_children), every second entity the child of the one
before it, the last system in hierarchy order reading its parent's
component), snapshots (context/snapshot.h, state_hash.h, save_load.h: a
snapshot taken, a step run and rolled back, the world saved and loaded into
a second context, the hashes compared). Each still checks the same total,
and the checks its feature adds.

--misuse NAME injects one misuse of Strata into the program (which then must
not compile): the realistic-size compile-fail tests of
//benchmarks/compile:misuse_tests. `--misuse list` prints the names. Misuses
touch systems s0, s1, s3, s4 and s5 (and s2 for the cycle), so they need at
least 8 components and 12 systems.
"""

import argparse
import sys


def update(written, reads):
    """A system's statement for one entity: `written` gains the products of
    the read components' a and b, and counts the run in d."""
    return f"{written}.a += " + " + ".join(
        [f"{r}.a * {r}.b" for r in reads] or ["1"]) + f"; ++{written}.d;"


def system_access(j, n):
    """(written, read...) component indices of system j."""
    written = j % n
    reads = sorted({(j + 1) % n, (j + 3) % n} - {written})
    return written, reads


def conflicts(a, b, n):
    wa, ra = system_access(a, n)
    wb, rb = system_access(b, n)
    return wa == wb or wa in rb or wb in ra


class System:
    """What the program says about one system: its signature's lists and
    the body of its process()."""

    def __init__(self, j, n):
        self.j = j
        self.written, self.reads = system_access(j, n)
        self.deps = [k for k in range(j) if conflicts(j, k, n)]
        self.extra = ""          # appended to the signature, verbatim
        self.read_call = None    # the .read(...) call, when not the usual
        self.body = None         # process()'s statement, when not the usual
        self.constructor = ""    # a constructor, when the system has one

    def for_each(self, params=None, leading=(), then="", capture="",
                 loop="data.for_each("):
        """The system's loop: `loop` with a lambda over `params` (the
        written component, then the read ones) updating the written one.
        A feature adds parameters before them (`leading`: an id, a parent
        pointer), a statement after the update (`then`) and a capture."""
        params = params or ([f"c{self.written}& w"] +
                            [f"const c{r}& r{i}"
                             for i, r in enumerate(self.reads)])
        body = update("w", [p.split()[-1] for p in params[1:]])
        body += f" {then}" if then else ""
        all_params = ", ".join(list(leading) + params)
        return f"{loop}[{capture}]({all_params}) {{ {body} }});"

    def signature(self):
        sig = f"strata::system_signature::make(st::s{self.j})" \
              f".write(ct::c{self.written})"
        if self.read_call is not None:
            sig += self.read_call
        elif self.reads:
            sig += ".read(" + ", ".join(f"ct::c{r}" for r in self.reads) + ")"
        if self.deps:
            sig += ".dependencies(" + ", ".join(
                f"st::s{k}" if isinstance(k, int) else f"st::{k}"
                for k in self.deps) + ")"
        return sig + self.extra


class Program:
    def __init__(self, n, m, by_value, run_time_choice=False,
                 by_value_driver=False):
        self.n, self.m, self.by_value = n, m, by_value
        self.by_value_driver = by_value_driver
        self.run_time_choice = run_time_choice
        self.systems = [System(j, n) for j in range(m)]
        self.sparse = {c: ".sparse()" for c in range(n) if c % 4 == 3}
        self.extra_declarations = []   # after the systems' tags
        self.forward_declarations = False
        self.early_declarations = []   # before the systems
        self.resources = []            # declared in the settings
        self.settings_extra = ""
        self.repeated_signature = None
        self.adapter = "strata::execution_adapter::all()"
        self.system_arguments = ""
        self.misuse = None
        self.feature = None
        self.includes = []             # '"header"' or '<header>' after strata.h
        self.settings_lines = []       # settings setters after the scheduler
        self.before_entities = []      # main(): before the creating loop
        self.per_entity = []           # main(): after an entity's components
        self.checks = []               # main(): lines before the verdict
        self.verdict = "total == expected"

    def text(self):
        n, m = self.n, self.m
        flags = f"--components {n} --systems {m}"
        flags += " --by_value" if self.by_value else ""
        flags += " --run_time_choice" if self.run_time_choice else ""
        flags += " --by_value_driver" if self.by_value_driver else ""
        flags += f" --misuse {self.misuse}" if self.misuse else ""
        flags += f" --feature {self.feature}" if self.feature else ""
        out = ["// Generated by benchmarks/compile/generate_program.py "
               f"{flags}.", "#include <cstdio>"] + [
                   f"#include {h}" for h in self.includes if h[0] == "<"] + (
                   ["#include <string_view>"] if self.run_time_choice else []) + [
               "", '#include "strata.h"'] + [
               f"#include {h}" for h in self.includes if h[0] != "<"] + [
               "", "namespace game {", ""]
        for c in range(n):
            out.append(f"struct c{c} {{ float a = {c}, b = 1, c = 0; int d = {c}; }};")
        out.append("")
        out.append("namespace ct {")
        for c in range(n):
            out.append(f"inline constexpr auto c{c} = strata::tag<game::c{c}>;")
        out.append("}  // namespace ct")
        out.append("")
        out += self.early_declarations
        if self.forward_declarations:
            out += [f"struct s{j};" for j in range(m)]
            out.append("")
        for s in self.systems:
            out += [f"struct s{s.j} {{"]
            if s.constructor:
                out.append(f"  {s.constructor}")
            out += ["  template <typename Data>",
                    "  void process(Data& data) const {",
                    f"    {s.body or s.for_each()}",
                    "  }", "};"]
        out.append("")
        out.append("namespace st {")
        for j in range(m):
            out.append(f"inline constexpr auto s{j} = strata::tag<game::s{j}>;")
        out.append("}  // namespace st")
        out.append("")
        out += self.extra_declarations
        signatures = []
        for c in range(n):
            storage = self.sparse.get(c, "")
            signatures.append(
                f"    strata::component_signature::make(ct::c{c}){storage}")
        out.append("constexpr auto components = strata::component_signatures(\n" +
                   ",\n".join(signatures) + ");")
        out.append("")
        signatures = ["    " + s.signature() for s in self.systems]
        if self.repeated_signature is not None:
            signatures.append(
                "    " + self.systems[self.repeated_signature].signature())
        out.append("constexpr auto systems = strata::system_signatures(\n" +
                   ",\n".join(signatures) + ");")
        out.append("")
        resources = ""
        if self.resources:
            resources = ("\n                              .resources(strata::resources(" +
                         ", ".join(f"strata::resource<{r}>"
                                   for r in self.resources) + "))")
        out += ["constexpr auto settings = strata::settings()",
                "                              .allow_inner_parallelism()",
                "                              .component_signatures(components)",
                "                              .system_signatures(systems)" +
                resources,
                "                              .scheduler(strata::scheduler::atomic_counter)" +
                "".join("\n                              " + line
                        for line in self.settings_lines) +
                self.settings_extra + ";",
                "", "}  // namespace game", ""]
        arguments = self.system_arguments
        if self.run_time_choice:
            out += ["int main(int argc, char** argv) {",
                    "  const bool sequential =",
                    '      argc > 1 && std::string_view(argv[1]) == "sequential";']
            arguments += (", strata::run_options().scheduler(sequential ? "
                          "strata::scheduler_kind::sequential : "
                          "strata::scheduler_kind::atomic_counter)")
        elif self.by_value_driver:
            out += ["template <typename Settings, typename Frame>",
                    "int run(Settings settings, Frame frame_step) {"]
        else:
            out += ["int main() {"]
        if self.by_value_driver:
            make = f"strata::make_context(settings{arguments})"
        elif self.by_value:
            make = f"strata::make_context(game::settings{arguments})"
        else:
            make = ("strata::make_context<game::settings>("
                    f"{arguments.lstrip(', ')})")
        out += [f"  auto ctx = {make};",
                "  ctx.step([](auto& proxy) {"]
        out += [f"    {line}" for line in self.before_entities]
        out += ["    for (int i = 0; i < 1000; ++i) {",
                "      const strata::entity_id e = proxy.create_entity();"]
        for c in range(n):
            out.append(f"      proxy.add_component(game::ct::c{c}, e);")
        out += [f"      {line}" for line in self.per_entity]
        out += ["    }", "  });",
                "  for (int frame = 0; frame < 3; ++frame) {"]
        if self.by_value_driver:
            out += ["    ctx.step(frame_step);", "  }"]
        else:
            out += ["    ctx.step([](auto& proxy) {",
                    f"      proxy.execute_systems()({self.adapter}.for_subtasks(",
                    "          [](auto& system, auto& data) { system.process(data); }));",
                    "    });", "  }"]
        out += ["  // Each system adds 1 to its written component's d per entity and",
                "  // run: the total says every system ran on every entity.",
                "  long long total = 0;"]
        for c in range(n):
            out.append(f"  ctx.for_each([&](const game::c{c}& c) {{ total += c.d; }});")
        expected = 1000 * sum(range(n)) + 3 * 1000 * m
        out += [f"  const long long expected = {expected};",
                '  std::printf("total %lld, expected %lld\\n", total, expected);']
        step = "frame_step" if self.by_value_driver else (
            "[](auto& proxy) {\n"
            f"    proxy.execute_systems()({self.adapter}.for_subtasks(\n"
            "        [](auto& system, auto& data) { system.process(data); }));\n"
            "  }")
        out += [f"  {line}".replace("@STEP@", step).replace("@MAKE@", make)
                for line in self.checks]
        out += [f"  return {self.verdict} ? 0 : 1;",
                "}", ""]
        if self.by_value_driver:
            out += ["int main(int argc, char** argv) {",
                    "  const std::size_t threads =",
                    "      argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 0;",
                    "  return run(game::settings.threads(threads), [](auto& proxy) {",
                    f"    proxy.execute_systems()({self.adapter}.for_subtasks(",
                    "        [](auto& system, auto& data) { system.process(data); }));",
                    "  });",
                    "}", ""]
        return "\n".join(out)


# Each misuse edits the program model. In the 8x12 program the systems run
# in one chain (s0 before s1 before s2 ...), each depending on the earlier
# ones it conflicts with; s0 writes c0 and reads c1, c3; s1 writes c1 and
# reads c2, c4; s3 writes c3 and reads c4, c6; s4 writes c4 and reads c5,
# c7; s5 writes c5 and reads c0, c6.
def _race(p):
    # s0 reads c1, which s1 writes; nothing orders them any more.
    p.systems[1].deps = []


def _two_races(p):
    # s0/s1 on c1 as above, and s3/s4 on c4 (s3 reads it, s4 writes it).
    p.systems[1].deps = []
    p.systems[4].deps = [1]


def _write_write_race(p):
    # s1 writes c0, as s0 does, and no longer writes c1 (which s0 reads).
    s1 = p.systems[1]
    s1.deps, s1.written = [], 0


def _without_s0_reading_c1(p):
    # s0 and s1 unordered, with nothing required in common.
    s0 = p.systems[0]
    s0.reads = [3]
    p.systems[1].deps = []


def _optional_write_race(p):
    # s0 may read c1 (read_optional), which s1 writes.
    _without_s0_reading_c1(p)
    p.systems[0].extra = ".read_optional(ct::c1)"


def _resource_race(p):
    # s0 writes a resource s1 reads.
    _without_s0_reading_c1(p)
    p.extra_declarations += ["struct grid { int cells = 0; };", ""]
    p.resources = ["game::grid"]
    p.systems[0].extra = ".write_resource<game::grid>()"
    p.systems[1].extra = ".read_resource<game::grid>()"


def _dependency_cycle(p):
    # s0 depends on s2, s2 on s1, s1 on s0.
    p.systems[0].deps = [2]


def _depends_on_itself(p):
    p.systems[5].deps.append(5)


def _unknown_dependency(p):
    # s5 depends on a system that is not in system_signatures(...).
    p.extra_declarations += [
        "struct unlisted { template <typename Data> void process(Data&) {} };",
        "namespace st {",
        "inline constexpr auto unlisted = strata::tag<game::unlisted>;",
        "}  // namespace st", ""]
    p.systems[5].deps.append("unlisted")


def _system_listed_twice(p):
    p.repeated_signature = 3


def _component_not_stored(p):
    # s5 reads `unstored`, which no component signature stores.
    p.extra_declarations += [
        "struct unstored { int x = 0; };",
        "namespace ct {",
        "inline constexpr auto unstored = strata::tag<game::unstored>;",
        "}  // namespace ct", ""]
    p.systems[5].read_call = ".read(ct::c0, ct::c6, ct::unstored)"


def _undeclared_resource_in_settings(p):
    p.extra_declarations += ["struct grid { int cells = 0; };", ""]
    p.systems[5].extra = ".read_resource<game::grid>()"


def _read_and_write(p):
    p.systems[5].read_call = ".read(ct::c0, ct::c6, ct::c5)"


def _setter_used_twice(p):
    p.systems[5].read_call = ".read(ct::c0).read(ct::c6)"


def _context_option_set_twice(p):
    p.settings_extra = "\n                              .threads(2).threads(4)"


def _hash_map_not_included(p):
    p.sparse[7] = ".hash_map()"


def _body(statement):
    def edit(p):
        p.systems[5].body = statement
    return edit


def _for_each_writes_read_only(p):
    # s5 takes c0 (read()) as c0&.
    p.systems[5].body = p.systems[5].for_each(
        ["c5& w", "c0& r0", "const c6& r1"])


def _for_each_undeclared_component(p):
    # s5's for_each takes c2, which its signature does not name.
    p.systems[5].body = p.systems[5].for_each(
        ["c5& w", "const c0& r0", "const c6& r1", "const c2& r2"])


def _for_each_optional_component(p):
    s5 = p.systems[5]
    s5.extra = ".read_optional(ct::c2)"
    s5.body = s5.for_each(
        ["c5& w", "const c0& r0", "const c6& r1", "const c2& r2"])


def _output_without_declaration(p):
    p.systems[5].body = "data.output() = 1;"


def _previous_output_without_dependency(p):
    # s4 reads s5's outputs, but s5 runs after s4.
    p.forward_declarations = True
    p.systems[5].extra = ".output<int>()"
    p.systems[4].body = ("data.for_previous_outputs(strata::tag<s5>, "
                         "[](auto&, int&) {});")


def _undeclared_resource(p):
    # s5 asks for a resource its signature does not declare.
    p.early_declarations += ["struct grid { int cells = 0; };", ""]
    p.resources = ["game::grid"]
    p.systems[5].body = "data.template resource<grid>().cells = 1;"


def _no_adapter_for_system(p):
    # The adapter selects every system but the last.
    p.adapter = "strata::execution_adapter::t(" + ", ".join(
        f"game::st::s{j}" for j in range(p.m - 1)) + ")"


def _system_needs_arguments(p):
    p.systems[5].constructor = "explicit s5(int factor) : factor(factor) {}  int factor;"


# Each feature edits the program model as a misuse does, and adds its own
# checks to main()'s verdict. The last system (s11 in the 8x12 program)
# writes c3 and reads c4 and c6; s4 writes c4 every frame.
def _last(p):
    return p.systems[-1]


def _count_field_c(p, name, expected):
    """main() sums field c of the last system's written component (which
    only the feature writes) and requires `expected`."""
    w = _last(p).written
    p.checks += [f"long long {name} = 0;",
                 f"ctx.for_each([&](const game::c{w}& c) {{ {name} += "
                 "static_cast<long long>(c.c); });"]
    p.verdict += f" && {name} == {expected}"


def _messages(p):
    # s0 sends each of its entities a bump; the last system applies them.
    p.early_declarations += [
        "struct bump { int amount = 1; };",
        "namespace mt {",
        "inline constexpr auto bump = strata::tag<game::bump>;",
        "}  // namespace mt", ""]
    s0, last = p.systems[0], _last(p)
    s0.extra = ".sends<game::bump>()"
    s0.body = s0.for_each(leading=["strata::entity_id self"], capture="&",
                          then="data.send(self, self, bump{});")
    last.extra = ".receives<game::bump>()"
    if 0 not in last.deps:
        last.deps = [0] + last.deps
    last.body = last.for_each(
        leading=["strata::entity_id self"], capture="&",
        then="for (const auto& m : data.messages(mt::bump, self)) "
             "w.c += static_cast<float>(m.value.amount);")
    _count_field_c(p, "received", 3 * 1000)
    p.verdict += " && ctx.dropped_messages() == 0"


def _change_filter(p):
    last = _last(p)
    last.extra = f".changed(ct::c{last.reads[0]})"


def _hooks(p):
    p.early_declarations += ["struct hook_count { long long added = 0; };", ""]
    p.resources = ["game::hook_count"]
    p.extra_declarations += [
        "constexpr auto hooks = strata::component_hooks(",
        "    strata::hook(ct::c0)",
        "        .on_add([](auto& proxy, strata::entity_id, c0&) {",
        "          ++proxy.template resource<hook_count>().added;",
        "        })",
        "        .resources(strata::resource<hook_count>));", ""]
    p.settings_lines += [".hooks(hooks)"]
    p.verdict += " && ctx.template resource<game::hook_count>().added == 1000"


def _hierarchy(p):
    last = _last(p)
    p.settings_lines += [".hierarchy(strata::kill_children)"]
    p.before_entities += ["strata::entity_id parent;"]
    p.per_entity += ["if (i % 2 == 1) proxy.set_parent(e, parent);",
                     "parent = e;"]
    last.extra = ".in_hierarchy_order()"
    w = last.written
    last.body = last.for_each(
        leading=[f"const c{w}* up"], then="if (up != nullptr) w.c += 1;",
        loop=f"data.for_each_with_parent(ct::c{w}, ")
    # Every second entity has a parent: 500 children, three frames.
    _count_field_c(p, "children", 3 * 500)


def _snapshots(p):
    p.includes += ["<cstdint>", "<sstream>", '"context/save_load.h"',
                   '"context/snapshot.h"', '"context/state_hash.h"']
    p.checks += [
        "// A step rolled back, then the world saved and loaded elsewhere.",
        "const auto saved = ctx.snapshot();",
        "const std::uint64_t hash = ctx.state_hash();",
        "ctx.step(@STEP@);",
        "const bool stepped = ctx.state_hash() != hash;",
        "ctx.restore(saved);",
        "std::stringstream file;",
        "const bool written = ctx.save(file) == strata::save_error::none;",
        "auto loaded = @MAKE@;",
        "const bool read = loaded.load(file) == strata::load_error::none;"]
    p.verdict += (" && stepped && written && read && ctx.state_hash() == hash"
                  " && loaded.state_hash() == hash")


FEATURES = {
    "messages": _messages,
    "change_filter": _change_filter,
    "hooks": _hooks,
    "hierarchy": _hierarchy,
    "snapshots": _snapshots,
}


MISUSES = {
    "data_race": _race,
    "two_races": _two_races,
    "write_write_race": _write_write_race,
    "optional_write_race": _optional_write_race,
    "resource_race": _resource_race,
    "dependency_cycle": _dependency_cycle,
    "depends_on_itself": _depends_on_itself,
    "unknown_dependency": _unknown_dependency,
    "system_listed_twice": _system_listed_twice,
    "component_not_stored": _component_not_stored,
    "undeclared_resource_in_settings": _undeclared_resource_in_settings,
    "read_and_write": _read_and_write,
    "setter_used_twice": _setter_used_twice,
    "context_option_set_twice": _context_option_set_twice,
    "hash_map_not_included": _hash_map_not_included,
    # Inside a system's process().
    "undeclared_component": _body(
        "data.for_entities([&](strata::entity_id e) { "
        "static_cast<void>(data.read(ct::c0, e).a + data.read(ct::c2, e).a); "
        "});"),
    "write_read_only": _body(
        "data.for_entities([&](strata::entity_id e) { "
        "data.get(ct::c0, e).a = 0; });"),
    "write_call_read_only": _body(
        "data.for_entities([&](strata::entity_id e) { "
        "data.write(ct::c0, e).a = 0; });"),
    "for_each_writes_read_only": _for_each_writes_read_only,
    "for_each_undeclared_component": _for_each_undeclared_component,
    "for_each_optional_component": _for_each_optional_component,
    "for_each_auto_parameter": _body(
        "data.for_each([](auto& w) { ++w.d; });"),
    "output_without_declaration": _output_without_declaration,
    "previous_output_without_dependency": _previous_output_without_dependency,
    "undeclared_resource": _undeclared_resource,
    "no_adapter_for_system": _no_adapter_for_system,
    "system_needs_arguments": _system_needs_arguments,
}


def hand_written(n, m):
    """The game of Program(n, m) without Strata (see --hand_written)."""
    systems = [System(j, n) for j in range(m)]
    out = ["// Generated by benchmarks/compile/generate_program.py "
           f"--components {n} --systems {m} --hand_written.",
           "#include <cstddef>", "#include <cstdio>", "#include <vector>", "",
           "namespace game {", ""]
    for c in range(n):
        out.append(f"struct c{c} {{ float a = {c}, b = 1, c = 0; int d = {c}; }};")
    out += ["", "struct world {"]
    out += [f"  std::vector<c{c}> c{c}s;" for c in range(n)]
    out += ["};", ""]
    for s in systems:
        body = update(f"w.c{s.written}s[i]",
                      [f"w.c{r}s[i]" for r in s.reads])
        out += [f"struct s{s.j} {{",
                "  void process(world& w) {",
                f"    for (std::size_t i = 0; i < w.c{s.written}s.size(); ++i) {{",
                f"      {body}",
                "    }", "  }", "};"]
    out += ["", "}  // namespace game", "", "int main() {",
            "  game::world w;",
            "  for (int i = 0; i < 1000; ++i) {"]
    out += [f"    w.c{c}s.emplace_back();" for c in range(n)]
    out += ["  }", "  for (int frame = 0; frame < 3; ++frame) {"]
    out += [f"    game::s{j}{{}}.process(w);" for j in range(m)]
    out += ["  }", "  long long total = 0;"]
    out += [f"  for (const game::c{c}& c : w.c{c}s) total += c.d;"
            for c in range(n)]
    expected = 1000 * sum(range(n)) + 3 * 1000 * m
    out += [f"  const long long expected = {expected};",
            '  std::printf("total %lld, expected %lld\\n", total, expected);',
            "  return total == expected ? 0 : 1;", "}", ""]
    return "\n".join(out)


def program(n, m, by_value, misuse=None, run_time_choice=False,
            by_value_driver=False, feature=None):
    p = Program(n, m, by_value, run_time_choice, by_value_driver)
    if feature:
        if n < 8 or m < 12:
            raise SystemExit("--feature needs at least 8 components, 12 systems")
        p.feature = feature
        FEATURES[feature](p)
    if misuse:
        if n < 8 or m < 12:
            raise SystemExit("--misuse needs at least 8 components, 12 systems")
        p.misuse = misuse
        MISUSES[misuse](p)
    return p.text()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--components", type=int, default=8)
    parser.add_argument("--systems", type=int, default=12)
    parser.add_argument("--by_value", action="store_true")
    parser.add_argument("--run_time_choice", action="store_true")
    parser.add_argument("--by_value_driver", action="store_true")
    parser.add_argument("--hand_written", action="store_true")
    parser.add_argument("--misuse", choices=sorted(MISUSES) + ["list"])
    parser.add_argument("--feature", choices=sorted(FEATURES) + ["list"])
    args = parser.parse_args()
    if args.misuse == "list":
        print("\n".join(sorted(MISUSES)))
        return
    if args.feature == "list":
        print("\n".join(sorted(FEATURES)))
        return
    if args.hand_written:
        sys.stdout.write(hand_written(args.components, args.systems))
        return
    sys.stdout.write(program(args.components, args.systems, args.by_value,
                             args.misuse, args.run_time_choice,
                             args.by_value_driver, args.feature))


if __name__ == "__main__":
    main()
