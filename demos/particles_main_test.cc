// //demos:particles as a user runs it: the exit status particles_main.cc
// documents (0 on success, 2 for bad flags, with a message) for malformed
// values, unknown flags and the --particles range.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "demos/particle_options.h"
#include "gtest/gtest.h"

namespace strata::demos {
namespace {

struct run_result {
  int status = -1;
  std::string output;  // stderr and stdout
};

// Runs the demo (a data dependency, in the test's runfiles) with `flags`.
run_result run_particles(const std::string& flags) {
  const std::string command = absl::StrCat("demos/particles ", flags, " 2>&1");
  run_result result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    result.output += buffer;
  }
  const int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}

TEST(ParticlesMainTest, MalformedValuesAndUnknownFlagsExitWithTwo) {
  for (const char* flags :
       {"--particles=abc", "--seed=-1", "--frames=1.5", "--no_such_flag=1",
        "--no_such_flag", "--scheduler=fastest", "--particles=0", "--particles",
        "stray_argument"}) {
    SCOPED_TRACE(flags);
    const run_result result = run_particles(flags);
    EXPECT_EQ(result.status, 2) << result.output;
    EXPECT_NE(result.output.find("particles: "), std::string::npos)
        << result.output;
  }
}

TEST(ParticlesMainTest, ParticlesAboveTheMaximumExitWithTwo) {
  const run_result result =
      run_particles(absl::StrCat("--particles=", kMaxParticles + 1));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("--particles"), std::string::npos)
      << result.output;
}

TEST(ParticlesMainTest, AShortRunSucceeds) {
  const run_result result =
      run_particles("--particles=50 --frames=2 --threads=2 --seed 7");
  EXPECT_EQ(result.status, 0) << result.output;
}

// The maximum's world fits the entity id (what the demo reserves is checked
// at construction: above the id's limit it aborts).
static_assert(entity_capacity_for(kMaxParticles) <= (1 << 22) - 1);

}  // namespace
}  // namespace strata::demos
