# Helpers shared by every target of the tl build.
#
# Each layer (see lib/CMakeLists.txt and docs/Architecture.md) is an OBJECT
# library so that unit tests of one layer link only what they need; all are
# folded into one shared library, TLCore, that tl-opt and every plugin link.
# That keeps exactly one copy of LLVM Support and of our registries in the
# process.

# GCC 12's -Wmaybe-uninitialized reports false positives on std::optional
# at -O2 (GCC PR 105616 and friends), and -Wrestrict on std::string inserts at
# -O3 (GCC PR 105651, Release builds); both stay off so -Werror builds are stable.
set(TL_COMMON_WARNINGS -Wall -Wextra -Wno-unused-parameter)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND TL_COMMON_WARNINGS -Wno-maybe-uninitialized -Wno-restrict)
elseif(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  # Clang flags libstdc++ 12's own std::get_temporary_buffer (used by
  # std::stable_sort) as deprecated in C++20; nothing we can change.
  list(APPEND TL_COMMON_WARNINGS -Wno-deprecated-declarations)
endif()
if(TL_WERROR)
  list(APPEND TL_COMMON_WARNINGS -Werror)
endif()

set(TL_SANITIZER_FLAGS "")
if(TL_SANITIZER)
  string(REPLACE ";" "," _tl_san "${TL_SANITIZER}")
  set(TL_SANITIZER_FLAGS -fsanitize=${_tl_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND "undefined" IN_LIST TL_SANITIZER)
    # Clang's UBSan flags null-pointer arithmetic inside RapidJSON's stack
    # (harmless, fixed upstream); see docs/Robustness.md.
    list(APPEND TL_SANITIZER_FLAGS
      -fsanitize-ignorelist=${PROJECT_SOURCE_DIR}/test/Fuzz/ubsan-ignorelist.txt)
  endif()
endif()

# Flags every tl target shares (system includes, definitions, warnings).
function(tl_target_flags target)
  target_include_directories(${target} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${RAPIDJSON_INCLUDE_DIR})
  separate_arguments(_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(${target} PUBLIC ${_llvm_defs})
  # Debian's LLVM is built without exceptions and RTTI.
  target_compile_options(${target} PRIVATE ${TL_COMMON_WARNINGS} ${TL_SANITIZER_FLAGS})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PRIVATE -fno-rtti)
  endif()
  target_link_options(${target} PRIVATE ${TL_SANITIZER_FLAGS})
endfunction()

# tl_target_defaults(TARGET): the flags plus every layer's headers. For code
# above all layers: tools, plugins, tests, TLCore.
function(tl_target_defaults target)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  tl_target_flags(${target})
endfunction()

set(TL_LAYER_LIBS "" CACHE INTERNAL "")
set(TL_LAYER_INCLUDE_ROOT ${CMAKE_BINARY_DIR}/layer-include)

# tl_add_layer(NAME SOURCES ... [DEPENDS layer...])
#
# The layers are enforced by the build: TLFoo's sources see only
# include/tl/Foo and the headers of the layers it DEPENDS on (directly or
# through them). Its include root, <build>/layer-include/Foo/tl/, holds one
# symlink per allowed layer to include/tl/<Layer>; `#include "tl/Bar/X.h"`
# of any other layer is "file not found". Layer targets carry no include
# directories to their users, so a dependency does not widen the view.
function(tl_add_layer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  string(REGEX REPLACE "^TL" "" _dir ${name})
  set(_allowed ${_dir})
  foreach(dep ${ARG_DEPENDS})
    if(NOT TARGET ${dep})
      message(FATAL_ERROR "layer ${name}: ${dep} must be added before it")
    endif()
    get_property(_dep_allowed GLOBAL PROPERTY TL_LAYER_VIEW_${dep})
    list(APPEND _allowed ${_dep_allowed})
  endforeach()
  list(REMOVE_DUPLICATES _allowed)
  list(SORT _allowed)
  set_property(GLOBAL PROPERTY TL_LAYER_VIEW_${name} ${_allowed})
  set(_root ${TL_LAYER_INCLUDE_ROOT}/${_dir})
  file(REMOVE_RECURSE ${_root})
  file(MAKE_DIRECTORY ${_root}/tl)
  foreach(layer ${_allowed})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/tl/${layer}
      ${_root}/tl/${layer} SYMBOLIC)
  endforeach()

  add_library(${name} OBJECT ${ARG_SOURCES})
  # Version.h is generated into <build>/include/tl/Support (it is the only
  # file there).
  target_include_directories(${name} PRIVATE ${_root} ${CMAKE_BINARY_DIR}/include)
  tl_target_flags(${name})
  target_link_libraries(${name} PUBLIC ${ARG_DEPENDS} fmt::fmt yaml-cpp ZLIB::ZLIB)
  set(TL_LAYER_LIBS ${TL_LAYER_LIBS} ${name} CACHE INTERNAL "")
endfunction()

# tl_add_builtin_plugin(NAME SOURCES ...): a built-in analyzer plugin. The
# SOURCES (the pass's logic) become the object library NAMELogic, which unit
# tests link directly; the plugin is that library plus the folder's
# Plugin.cpp, the entry point tl-opt looks up when it loads the plugin.
function(tl_add_builtin_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  add_library(${name}Logic OBJECT ${ARG_SOURCES})
  tl_target_defaults(${name}Logic)
  target_link_libraries(${name}Logic PUBLIC TLCore)
  add_library(${name} MODULE Plugin.cpp $<TARGET_OBJECTS:${name}Logic>)
  tl_target_defaults(${name})
  target_link_libraries(${name} PRIVATE TLCore)
  set_target_properties(${name} PROPERTIES
    PREFIX "lib"
    LIBRARY_OUTPUT_DIRECTORY ${TL_PLUGIN_OUTPUT_DIR}
    INSTALL_RPATH "$ORIGIN/../..")
  install(TARGETS ${name} LIBRARY DESTINATION lib/tl/passes)
  set_property(GLOBAL APPEND PROPERTY TL_BUILTIN_PLUGINS ${name})
endfunction()

# tl_add_tool(NAME SOURCES ...)
function(tl_add_tool name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  tl_target_defaults(${name})
  target_link_libraries(${name} PRIVATE TLCore ${ARG_LIBS})
  set_target_properties(${name} PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()

# tl_add_unittest(NAME SOURCES ... LIBS layer...): a GoogleTest binary run by ctest.
function(tl_add_unittest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  tl_target_defaults(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} LLVM GTest::gtest_main GTest::gmock Threads::Threads)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/unittests)
  add_test(NAME ${name} COMMAND ${name})
  set_property(GLOBAL APPEND PROPERTY TL_UNITTESTS ${name})
endfunction()
