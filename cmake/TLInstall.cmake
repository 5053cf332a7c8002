# Install tree: headers, TLCore, plugins, data and a CMake package so that
# out-of-tree plugins can `find_package(TL)` and call tl_add_pass_plugin().
include(CMakePackageConfigHelpers)
install(DIRECTORY include/tl DESTINATION include FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_BINARY_DIR}/include/tl/Support/Version.h DESTINATION include/tl/Support)
install(TARGETS TLCore EXPORT TLTargets LIBRARY DESTINATION lib)
install(EXPORT TLTargets NAMESPACE TL:: DESTINATION lib/cmake/tl)
configure_package_config_file(cmake/TLConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/TLConfig.cmake INSTALL_DESTINATION lib/cmake/tl)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/TLConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/TLConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/TLConfigVersion.cmake
  cmake/TLPluginHelpers.cmake DESTINATION lib/cmake/tl)
