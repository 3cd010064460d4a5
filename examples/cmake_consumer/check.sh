#!/usr/bin/env bash
# Builds examples/cmake_consumer's arena program against Strata each way a
# CMake or Makefile user would, every time from a clean build directory, and
# checks its exact output (arena.expected, via examples/expect_output.sh):
#   1. Strata on its own: configure, build (-Werror on its sources), its CTest
#      sample, `cmake --install` into a scratch prefix;
#   2. package:      find_package(Strata CONFIG) from that prefix;
#   3. pkg-config:   c++ -std=c++20 arena.cc $(pkg-config --cflags --libs strata);
#   4. subdirectory: add_subdirectory(Strata's tree), with STRATA_WERROR=ON:
#                    -Werror must reach Strata's .cc files and not arena.cc;
#   5. fetchcontent: FetchContent_Declare(strata SOURCE_DIR <Strata's tree>).
# Prints "cmake_consumer: N passed, N failed"; exits non-zero on any failure.
#
#   examples/cmake_consumer/check.sh [-j JOBS]   (default 2)
set -uo pipefail

jobs=2
if [[ ${1:-} == -j ]]; then
  jobs=$2
fi

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
expect_output=$root/examples/expect_output.sh
expected=$here/arena.expected
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

passed=0
failed=0
failures=()

# check NAME COMMAND...: runs one way; counts it as passed or failed.
check() {
  local name=$1
  shift
  echo "=== cmake_consumer: $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "FAIL: cmake_consumer: $name"
  fi
}

# configure_and_build SOURCE BUILD_DIR [cmake -D options...]
configure_and_build() {
  local source=$1 build=$2
  shift 2
  cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log"; return 1; }
  cmake --build "$build" -j "$jobs"
}

# werror_only_on_strata COMPILE_COMMANDS_JSON: Strata's own .cc files are
# compiled with -Werror, the consumer's arena.cc without it.
werror_only_on_strata() {
  python3 - "$1" <<'PYTHON'
import json, sys
commands = json.load(open(sys.argv[1]))
bad = []
strata_files = 0
for entry in commands:
    command = entry.get("command") or " ".join(entry["arguments"])
    consumer = entry["file"].endswith("/arena.cc")
    strata_files += not consumer
    if ("-Werror" in command.split()) == consumer:
        bad.append(entry["file"])
if bad or strata_files == 0:
    print("-Werror on the consumer or missing on Strata's sources:", bad)
    sys.exit(1)
PYTHON
}

strata_alone() {
  configure_and_build "$root" "$scratch/strata" -DSTRATA_WERROR=ON \
    -DSTRATA_BUILD_TESTS=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON &&
    werror_only_on_strata "$scratch/strata/compile_commands.json" &&
    (cd "$scratch/strata" && ctest --output-on-failure) &&
    cmake --install "$scratch/strata" --prefix "$scratch/prefix" >/dev/null
}

from_package() {
  configure_and_build "$here" "$scratch/package" -DSTRATA_FROM=package \
    -DCMAKE_PREFIX_PATH="$scratch/prefix" &&
    "$expect_output" "$scratch/package/arena" "$expected"
}

from_pkg_config() {
  local pc_file flags
  pc_file=$(find "$scratch/prefix" -name strata.pc)
  [[ -n $pc_file ]] || { echo "no strata.pc installed"; return 1; }
  flags=$(PKG_CONFIG_PATH=$(dirname "$pc_file") pkg-config --cflags --libs strata) || return 1
  mkdir -p "$scratch/pkg-config" &&
    # shellcheck disable=SC2086 # $flags is a list of flags
    c++ -std=c++20 -O2 -Wall -Wextra "$here/arena.cc" -o "$scratch/pkg-config/arena" $flags &&
    "$expect_output" "$scratch/pkg-config/arena" "$expected"
}

from_subdirectory() {
  configure_and_build "$here" "$scratch/subdirectory" -DSTRATA_FROM=subdirectory \
    -DSTRATA_SOURCE_DIR="$root" -DSTRATA_WERROR=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON &&
    werror_only_on_strata "$scratch/subdirectory/compile_commands.json" &&
    "$expect_output" "$scratch/subdirectory/arena" "$expected"
}

from_fetchcontent() {
  configure_and_build "$here" "$scratch/fetchcontent" -DSTRATA_FROM=fetchcontent \
    -DSTRATA_SOURCE_DIR="$root" &&
    "$expect_output" "$scratch/fetchcontent/arena" "$expected"
}

check "Strata alone (build, CTest, install)" strata_alone
check "find_package" from_package
check "pkg-config" from_pkg_config
check "add_subdirectory" from_subdirectory
check "FetchContent" from_fetchcontent

[[ ${#failures[@]} -eq 0 ]] || echo "cmake_consumer: failed: ${failures[*]}"
echo "cmake_consumer: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
