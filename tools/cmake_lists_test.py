"""Checks that Strata's CMake build lists what its Bazel build does.

Each library package's CMakeLists.txt declares one strata_package() whose
HEADERS and SOURCES must be exactly the hdrs and srcs of the package's
non-testonly cc_library targets, and whose DEPENDS must name the packages and
Abseil targets those cc_library targets depend on; the root CMakeLists.txt
does the same for //:strata. A header added to a BUILD.bazel but not to the
CMakeLists.txt beside it, or a new package a library starts to depend on,
fails here with the line to add.
"""

import os
import re
import unittest

# The packages the CMake build covers: every package //:strata depends on,
# directly or not (the test checks that no dependency leaves this set).
PACKAGES = (
    "base",
    "meta",
    "sparse_set",
    "entity",
    "component_storage",
    "threading",
    "scheduler",
    "context",
)

# Debian libraries mapped in third_party/, and the CMake targets the root
# CMakeLists.txt finds them as.
DEBIAN_LIBRARIES = {
    "@xxhash": "PkgConfig::xxhash",
    "@cereal": "cereal::cereal",
}

# CMake targets with no Bazel label of their own (std::thread's library,
# which Bazel's toolchain links by default).
CMAKE_ONLY_DEPENDENCIES = {"Threads::Threads"}


def read(path):
    with open(path) as f:
        return f.read()


def bazel_libraries(build_text):
    """Returns the keyword arguments of every non-testonly cc_library."""
    libraries = []

    def cc_library(**kwargs):
        if not kwargs.get("testonly"):
            libraries.append(kwargs)

    def ignore(*args, **kwargs):
        del args, kwargs

    names = {"cc_library": cc_library, "glob": lambda *a, **k: []}
    while True:  # every other rule or function of the BUILD file: ignored
        try:
            exec(compile(build_text, "BUILD.bazel", "exec"), dict(names))
            return libraries
        except NameError as error:
            name = re.search(r"name '(\w+)'", str(error)).group(1)
            names[name] = ignore
            libraries.clear()


def cmake_name(label, package):
    """The CMake target for a Bazel dependency of a library in `package`."""
    absl = re.match(r"@com_google_absl//absl/[\w/]+?(?::(\w+))?$", label)
    if absl:
        return "absl::" + (absl.group(1) or label.rsplit("/", 1)[1])
    if label in DEBIAN_LIBRARIES:
        return DEBIAN_LIBRARIES[label]
    if label.startswith(":"):
        return "strata::" + package
    match = re.match(r"//(\w*)(?::\w+)?$", label)
    if not match:
        raise ValueError("unknown dependency " + label)
    return "strata::" + (match.group(1) or "strata")


def bazel_package(root, package):
    """Sources, headers and dependencies of one package's libraries."""
    sources, headers, depends = set(), set(), set()
    build = os.path.join(root, package, "BUILD.bazel")
    for library in bazel_libraries(read(build)):
        sources.update(library.get("srcs", []))
        headers.update(library.get("hdrs", []))
        depends.update(
            cmake_name(label, package or "strata")
            for label in library.get("deps", []))
    depends.discard("strata::" + (package or "strata"))
    return sources, headers, depends


def cmake_package(root, package):
    """Sources, headers and dependencies of the strata_package() call."""
    text = read(os.path.join(root, package, "CMakeLists.txt"))
    text = re.sub(r"#.*", "", text)
    call = re.search(r"strata_package\((.*?)\)", text, re.S)
    if not call:
        raise AssertionError(package + "/CMakeLists.txt: no strata_package()")
    sections = {"NAME": [], "SOURCES": [], "HEADERS": [], "DEPENDS": []}
    current = None
    for word in call.group(1).split():
        if word in sections:
            current = word
        else:
            sections[current].append(word)
    return (sections["NAME"], set(sections["SOURCES"]),
            set(sections["HEADERS"]), set(sections["DEPENDS"]))


class CMakeListsTest(unittest.TestCase):

    def setUp(self):
        # Runfiles: the workspace's files under the test's working directory.
        self.root = os.getcwd()

    def check_package(self, package, name):
        where = (package or ".") + "/CMakeLists.txt"
        cmake_name_list, cmake_sources, cmake_headers, cmake_depends = (
            cmake_package(self.root, package))
        bazel_sources, bazel_headers, bazel_depends = bazel_package(
            self.root, package)
        self.assertEqual(cmake_name_list, [name], where)
        self.assert_same(where, "HEADERS", cmake_headers, bazel_headers)
        self.assert_same(where, "SOURCES", cmake_sources, bazel_sources)
        self.assert_same(where, "DEPENDS",
                         cmake_depends - CMAKE_ONLY_DEPENDENCIES,
                         bazel_depends)
        return bazel_depends

    def assert_same(self, where, section, cmake, bazel):
        if cmake != bazel:
            self.fail("%s: %s must mirror BUILD.bazel's non-testonly "
                      "cc_library targets; add %s, remove %s" %
                      (where, section, sorted(bazel - cmake),
                       sorted(cmake - bazel)))

    def test_packages_match_bazel(self):
        for package in PACKAGES:
            with self.subTest(package=package):
                depends = self.check_package(package, package)
                for target in depends:
                    if target.startswith("strata::"):
                        self.assertIn(
                            target[len("strata::"):], PACKAGES,
                            package + " depends on a package the CMake "
                            "build lacks: add its CMakeLists.txt and list "
                            "it in PACKAGES and the root CMakeLists.txt")

    def test_umbrella_matches_bazel(self):
        self.check_package("", "strata")

    def test_root_adds_every_package(self):
        text = read(os.path.join(self.root, "CMakeLists.txt"))
        added = re.findall(r"^add_subdirectory\((\w+)\)", text, re.M)
        self.assertEqual(added, list(PACKAGES),
                         "CMakeLists.txt: add_subdirectory() per package, "
                         "in PACKAGES' order (a package after its "
                         "dependencies)")


if __name__ == "__main__":
    unittest.main()
