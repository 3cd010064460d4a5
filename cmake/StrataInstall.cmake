# Install rules beyond each package's headers and library
# (cmake/StrataPackage.cmake): the CMake package (StrataConfig.cmake,
# StrataConfigVersion.cmake, StrataTargets.cmake) and strata.pc.
#
# Layout under the prefix:
#   include/strata/{strata.h,context/...,...}   -I include/strata, so users
#                                                write "context/context.h"
#   lib/libstrata_<package>.a                    the packages with .cc files
#   lib/cmake/Strata/                            find_package(Strata CONFIG)
#   lib/pkgconfig/strata.pc                      pkg-config strata
# The headers sit in their own include/strata/ folder because Strata's
# package names (base, context, meta...) would collide with others'
# directly under include/.
include(CMakePackageConfigHelpers)

set(strata_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/Strata")

install(EXPORT StrataTargets
  NAMESPACE strata::
  DESTINATION "${strata_cmake_dir}")
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/StrataConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/StrataConfig.cmake"
  INSTALL_DESTINATION "${strata_cmake_dir}")
# Before 1.0 a minor version may change the API.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/StrataConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/StrataConfig.cmake"
  "${PROJECT_BINARY_DIR}/StrataConfigVersion.cmake"
  DESTINATION "${strata_cmake_dir}")

# strata.pc: the prefix is found from the .pc file's own location, so that
# `cmake --install --prefix DIR` gives a working file wherever DIR is.
# Libraries in dependency order: a package's library before those it uses
# (packages are declared in the opposite order).
get_property(strata_compiled GLOBAL PROPERTY STRATA_COMPILED_PACKAGES)
list(REVERSE strata_compiled)
set(STRATA_PC_LIBS "")
foreach(package IN LISTS strata_compiled)
  string(APPEND STRATA_PC_LIBS " -lstrata_${package}")
endforeach()
set(strata_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
file(RELATIVE_PATH STRATA_PC_PREFIX "/prefix/${strata_pc_dir}" "/prefix")
string(REGEX REPLACE "/$" "" STRATA_PC_PREFIX "${STRATA_PC_PREFIX}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/strata.pc.in"
  "${PROJECT_BINARY_DIR}/strata.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/strata.pc" DESTINATION "${strata_pc_dir}")
