#!/usr/bin/env bash
# Installs everything Strata's build needs on a Debian 12 machine, from
# Debian's packages only. Idempotent: when all is installed it does nothing
# (no apt-get update) and returns in a second or two. Runs as root, or
# through sudo otherwise.
set -euo pipefail

packages=(
  bazel-bootstrap        # Bazel 4.2.3
  bazel-rules-cc         # rules_cc, patched for Bazel 4 by WORKSPACE
  bazel-rules-java       # Bazel needs rules_java even for C++
  g++                    # GCC 12: the main compiler
  clang-14               # the second compiler (--config=clang)
  libabsl-dev            # Abseil
  libgtest-dev           # GoogleTest
  libgmock-dev           # GoogleMock (ships with GoogleTest)
  libbenchmark-dev       # Google Benchmark
  libconcurrentqueue-dev # moodycamel::ConcurrentQueue
  libpng-dev             # PNG output of the demos
  libxxhash-dev          # xxHash: the state hash, saved worlds' checksums
  libcereal-dev          # cereal: strata::cereal_io (context/cereal_io.h)
  gnuplot-nox            # plots in BENCHMARKS.md
  python3                # tools/bench_report.py
  cmake                  # the CMake build (CMakeLists.txt, examples/cmake_consumer)
  pkgconf                # pkg-config, for strata.pc (examples/cmake_consumer)
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed."
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi

echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done."
