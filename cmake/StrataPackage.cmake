# strata_package(): one CMake target per Strata package (Bazel package).
#
#   strata_package(NAME <package>
#                  [SOURCES <.cc files>...]
#                  HEADERS <public and internal headers>...
#                  [DEPENDS <targets>...])
#
# Declares strata_<package> (exported and aliased as strata::<package>): a
# static library when SOURCES are given, an INTERFACE library otherwise.
# HEADERS and SOURCES are paths relative to the package directory, as in its
# BUILD.bazel; tools/cmake_lists_test.py checks that they list exactly the
# files of the package's non-testonly cc_library targets, so a header added
# to BUILD.bazel but not here fails `bazel test //tools:cmake_lists_test`.
# HEADERS are installed under include/strata/<package>/, keeping the include
# paths users write ("context/context.h").
#
# Warnings (and, with STRATA_WERROR, -Werror) apply to Strata's own .cc files
# only (PRIVATE), never to a consumer's code that includes Strata's headers.
include_guard(GLOBAL)

function(strata_package)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME" "SOURCES;HEADERS;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_NAME OR NOT arg_HEADERS)
    message(FATAL_ERROR
      "strata_package(NAME ... HEADERS ...): bad arguments ${ARGN}")
  endif()
  set(target strata_${arg_NAME})
  # The include root: the repository root while building, include/strata
  # once installed.
  set(include_root
    "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>"
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/strata>")
  if(arg_SOURCES)
    add_library(${target} STATIC ${arg_SOURCES})
    # Static, yet linkable into a user's shared library; -std=c++20 as in
    # the Bazel build, not -std=gnu++20.
    set_target_properties(${target} PROPERTIES
      POSITION_INDEPENDENT_CODE ON
      CXX_EXTENSIONS OFF)
    target_include_directories(${target} PUBLIC ${include_root})
    target_link_libraries(${target} PUBLIC ${arg_DEPENDS})
    target_compile_features(${target} PUBLIC cxx_std_20)
    strata_warnings(${target})
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${include_root})
    target_link_libraries(${target} INTERFACE ${arg_DEPENDS})
    target_compile_features(${target} INTERFACE cxx_std_20)
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${arg_NAME})
  add_library(strata::${arg_NAME} ALIAS ${target})

  # Header lists double as IDE file lists.
  target_sources(${target} PRIVATE ${arg_HEADERS})
  if(STRATA_INSTALL)
    file(RELATIVE_PATH package_path "${PROJECT_SOURCE_DIR}"
      "${CMAKE_CURRENT_SOURCE_DIR}")
    foreach(header IN LISTS arg_HEADERS)
      cmake_path(APPEND package_path "${header}" OUTPUT_VARIABLE header_path)
      cmake_path(GET header_path PARENT_PATH header_dir)
      install(FILES "${header}"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/strata/${header_dir}")
    endforeach()
    install(TARGETS ${target} EXPORT StrataTargets
      ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
  endif()
  # For strata.pc's library list (cmake/StrataInstall.cmake).
  if(arg_SOURCES)
    set_property(GLOBAL APPEND PROPERTY STRATA_COMPILED_PACKAGES ${arg_NAME})
  endif()
endfunction()

# Strata's warning flags on one of its own targets: the Bazel build's
# -Wall -Wextra, and with STRATA_WERROR its -Werror
# -Wno-error=deprecated-declarations (.bazelrc's per_file_copt).
function(strata_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(STRATA_WERROR)
    target_compile_options(${target} PRIVATE
      -Werror -Wno-error=deprecated-declarations)
  endif()
endfunction()
