# STRATA_BUILD_TESTS=ON: some of Strata's unit tests through CTest, built
# against the strata:: targets alone, which proves the targets carry the
# include paths, C++20 and dependencies their users need. Bazel runs every
# test; this list is a sample, not a second test suite.
find_package(GTest CONFIG REQUIRED)

# strata_test(<test .cc file, relative to the root> <strata:: targets>...)
function(strata_test source)
  get_filename_component(name "${source}" NAME_WE)
  add_executable(${name} "${PROJECT_SOURCE_DIR}/${source}")
  target_link_libraries(${name} PRIVATE ${ARGN} GTest::gtest_main)
  set_target_properties(${name} PROPERTIES CXX_EXTENSIONS OFF)
  strata_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
endfunction()

strata_test(base/check_test.cc strata::base)
strata_test(sparse_set/component_sparse_set_test.cc strata::sparse_set)
strata_test(sparse_set/ordered_index_set_test.cc strata::sparse_set)
strata_test(sparse_set/sparse_integer_set_test.cc strata::sparse_set)
strata_test(sparse_set/versioned_sparse_set_test.cc strata::sparse_set)
strata_test(readme_example_test.cc strata::strata)
