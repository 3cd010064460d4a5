#!/usr/bin/env python3
"""Counts the files and jumps of the step path in a callgrind dump.

The rule (docs/ARCHITECTURE.md, "One step, top to bottom"): build
//tools/step_path:one_step without optimisation and inlining
(-c dbg --copt=-O0 --copt=-fno-inline), so that every call the source
makes is a call, run it under
  valgrind --tool=callgrind --dump-before='step_path_mark_*'
and hand this script the dumps in order up to the one of the measured steps
(callgrind names a file or function once, in the first dump that meets it):
the second dump is the adaptive policy's steps, the fourth the fixed
policy's, e.g. count.py out.1 out.2

  A file is a Strata source file with code the steps execute, or the
  program's own (one_step.cc: the step's callable and the systems); a
  header and the .cc that defines what it declares are one file.
  A jump is a pair (caller's file, callee's file) of two different such
  files such that some function of the first calls some function of the
  second, directly or through code that is neither (the standard library,
  Abseil); each pair counts once however often and wherever it is called.
  Code an always_inline function brings into its caller (callgrind's
  fi=/fe= lines) is a call from the caller's file into the inlined code's
  file.

-v lists the files and the jumps. Check a surprising file or jump against
the binary (addr2line on the function's address): valgrind can name the
wrong file for a function's first line (a core.h accessor named as in a
run policy's header, say), which shows as a file or jump that no call in
the source explains.
"""
import re
import sys
from collections import defaultdict

PACKAGES = ("base/", "meta/", "sparse_set/", "entity/", "threading/",
            "component_storage/", "scheduler/", "context/", "strata.h",
            "tools/step_path/")


def strata_file(path):
  path = re.sub(r"^(/proc/self/cwd/)?(\./)?", "", path)
  if path.startswith(PACKAGES):
    return path if path.startswith("tools/") else re.sub(r"\.cc$", ".h", path)
  return None


def parse(lines, names):
  """Reads one dump: each function's file, and its calls as (the file the
  calling code is in, the callee); code inlined into a function (its
  always_inline callees) is a call from the function's file into the
  inlined code's file, with the calls that code makes."""
  def name(kind, value):
    m = re.match(r"\((\d+)\)(?: (.*))?", value)
    if not m:
      return value
    table = names[kind]
    if m.group(2) is not None:
      table[m.group(1)] = m.group(2)
    return table[m.group(1)]
  file_of = {}
  calls = defaultdict(set)
  inlined = defaultdict(set)
  fl = position = fn = cfl = None
  for line in lines:
    key, _, value = line.rstrip("\n").partition("=")
    if key == "fl":
      fl = position = name("fl", value)
      cfl = None
    elif key in ("fi", "fe"):
      position = name("fl", value)
      inlined[fn].add(position)
    elif key == "fn":
      fn = name("fn", value)
      file_of[fn] = fl  # where the function is defined
      position = fl
      cfl = None
    elif key in ("cfl", "cfi"):
      cfl = name("fl", value)
    elif key == "cfn":
      callee = name("fn", value)
      file_of.setdefault(callee, cfl if cfl is not None else position)
      calls[fn].add((position, callee))
      cfl = None
  return file_of, calls, inlined


def main():
  names = {"fl": {}, "fn": {}}
  dumps = [a for a in sys.argv[1:] if not a.startswith("-")]
  for path in dumps:
    with open(path) as dump:
      file_of, calls, inlined = parse(dump, names)
  files = set()
  jumps = set()
  for fn, path in file_of.items():
    home = strata_file(path)
    if home is None:
      continue
    files.add(home)
    for position in inlined.get(fn, ()):
      source = strata_file(position)
      if source is not None:
        files.add(source)
        if source != home:
          jumps.add((home, source))
    seen, todo = set(), [(p, c) for p, c in calls.get(fn, ())]
    while todo:
      position, callee = todo.pop()
      source = strata_file(position) or home
      if (source, callee) in seen:
        continue
      seen.add((source, callee))
      target = strata_file(file_of.get(callee, ""))
      if target is None:
        todo.extend((source, c) for _, c in calls.get(callee, ()))
      elif target != source:
        jumps.add((source, target))
  verbose = "-v" in sys.argv
  print(f"{len(files)} files, {len(jumps)} jumps")
  # The step's machinery alone: the files of //context and //scheduler
  # (and the program's), the jumps between them.
  machinery = ("context/", "scheduler/", "tools/step_path/")
  inner = {f for f in files if f.startswith(machinery)}
  inner_jumps = {(a, b) for a, b in jumps if a in inner and b in inner}
  print(f"  of which //context, //scheduler and the program: "
        f"{len(inner)} files, {len(inner_jumps)} jumps")
  if verbose:
    for f in sorted(files):
      print("  file", f)
    for a, b in sorted(jumps):
      print(f"  jump {a} -> {b}")


if __name__ == "__main__":
  main()
