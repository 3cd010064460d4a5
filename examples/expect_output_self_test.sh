#!/bin/bash
# expect_output.sh must fail on a wrong line, a regex that does not match and
# a missing line, and pass on the right output (exact and regex lines).
#
#   expect_output_self_test.sh EXPECT_OUTPUT_SH HELLO_WORLD_BINARY
set -u
checker=$1
binary=$2
dir=${TEST_TMPDIR:-$(mktemp -d)}

expect() {  # expect pass|fail NAME LINES...
  local want=$1 name=$2
  shift 2
  printf '%s\n' "$@" >"$dir/$name"
  if "$checker" "$binary" "$dir/$name" >"$dir/$name.log" 2>&1; then
    got=pass
  else
    got=fail
  fi
  if [[ $got != "$want" ]]; then
    echo "FAIL: expected $want for $name, got $got:"
    cat "$dir/$name.log"
    exit 1
  fi
  echo "ok: $name -> $got"
}

expect pass right "3 entities after 4 steps" "entity 0@0: counter = 3" \
  "re:entity 1@0: counter = [0-9]+" "entity 2@0: counter = 23"
expect fail wrong_line "3 entities after 4 steps" "entity 0@0: counter = 4" \
  "entity 1@0: counter = 13" "entity 2@0: counter = 23"
expect fail wrong_regex "3 entities after 4 steps" "entity 0@0: counter = 3" \
  "re:entity 1@0: counter = [a-z]+" "entity 2@0: counter = 23"
expect fail missing_line "3 entities after 4 steps" "entity 0@0: counter = 3" \
  "entity 1@0: counter = 13"
