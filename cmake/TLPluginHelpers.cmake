# tl_add_pass_plugin(NAME SOURCES ...): build an out-of-tree analyzer plugin
# against an installed tl (find_package(TL)). The plugin links TL::TLCore and
# LLVM's shared library, so the process keeps one copy of each.
function(tl_add_pass_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  add_library(${name} MODULE ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON PREFIX "lib")
  target_include_directories(${name} SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS})
  separate_arguments(_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(${name} PRIVATE ${_llvm_defs})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${name} PRIVATE -fno-rtti)
  endif()
  target_link_libraries(${name} PRIVATE TL::TLCore)
endfunction()
