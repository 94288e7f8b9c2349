# Installing cafka (`cmake --install build --prefix P`) and packaging it (`cpack -G DEB` in
# the build folder): docs/packaging.md.
#
#   P/bin/                      cafka-server and the tools
#   P/etc/cafka/                server.properties
#   P/include/cafka/            the headers of the client and the simulation (and what they include)
#   P/lib/                      the static libraries
#   P/lib/cmake/cafka/          find_package(cafka CONFIG): cafka::client, cafka::sim
#
# The Debian package puts everything under /usr, the configuration in /etc/cafka and a
# systemd unit in /lib/systemd/system; those two go only into the package (component
# "system", not installed by a plain `cmake --install`, which instead puts the configuration
# under the prefix: component "config", not packaged).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(cafka_programs cafka-server cafka-check-config cafka-topics cafka-console-producer cafka-console-consumer
                   cafka-consumer-groups cafka-configs cafka-leader-election cafka-reassign-partitions cafka-delete-records
                   cafka-perf)
install(TARGETS ${cafka_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT server)
install(FILES config/server.properties DESTINATION ${CMAKE_INSTALL_SYSCONFDIR}/cafka COMPONENT config)

# The libraries a client or simulation program links, with the INTERFACE targets standing for
# Debian's CAF, LZ4, snappy and zstd (absolute paths; found again by nothing, so the same machine
# layout). zlib and OpenSSL are imported targets, found again by cafkaConfig.cmake.
set_target_properties(cafka_client PROPERTIES EXPORT_NAME client)
set_target_properties(cafka_sim PROPERTIES EXPORT_NAME sim)
install(TARGETS cafka_protocol cafka_storage cafka_config cafka_cluster cafka_metrics cafka_actors cafka_client cafka_sim
                lz4_frame snappy_codec zstd_codec caf_core caf_io
        EXPORT cafka-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY protocol storage config cluster metrics actors client sim
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cafka COMPONENT development
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT cafka-targets NAMESPACE cafka:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cafka
        COMPONENT development)
configure_package_config_file(cmake/cafkaConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/cafkaConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cafka)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/cafkaConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cafkaConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/cafkaConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cafka COMPONENT development)

# Package only (instead of component "config" under the prefix): the configuration where
# Debian keeps it, and the service.
install(FILES config/server.properties DESTINATION /etc/cafka COMPONENT system EXCLUDE_FROM_ALL)
install(FILES packaging/cafka.service DESTINATION /lib/systemd/system COMPONENT system EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cafka)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "cafka developers <cafka@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "A partitioned, replicated commit log speaking Kafka's protocol, on CAF")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE) # one package with every component
set(CPACK_COMPONENTS_ALL server development system)
set(CPACK_STRIP_FILES ON) # the build keeps debug info; the package does not
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcaf-core0.17, libcaf-io0.17, libzookeeper-mt2, liblz4-1, zlib1g, libsnappy1v5, libzstd1, libssl3, librdkafka1")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/conffiles)
include(CPack)
