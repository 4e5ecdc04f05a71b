# What `cmake --install` puts into the prefix, in two components:
#   cli: bin/logagg, the man pages and the bash, zsh and fish completions;
#   dev: the engine library, its headers and the CMake package files, so that
#        find_package(logagg CONFIG) gives logagg::engine.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS logagg RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(FILES ${LOGAGG_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli)
set(completions ${PROJECT_SOURCE_DIR}/apps/logagg/completions)
install(FILES ${completions}/logagg.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME logagg COMPONENT cli)
install(FILES ${completions}/_logagg DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT cli)
install(FILES ${completions}/logagg.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d
        COMPONENT cli)

set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/logagg)
install(TARGETS logagg_engine EXPORT logaggTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The public headers only: engine/include/logagg/*.h and the generated version.h.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/logagg DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/engine/include/logagg/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/logagg
        COMPONENT dev)
install(EXPORT logaggTargets NAMESPACE logagg:: DESTINATION ${cmake_dir} COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/logaggConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/logaggConfig.cmake INSTALL_DESTINATION ${cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/logaggConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/logaggConfig.cmake ${PROJECT_BINARY_DIR}/logaggConfigVersion.cmake
        DESTINATION ${cmake_dir} COMPONENT dev)
