# `cmake --install` and a Debian package (cpack -G DEB) that installs disktune
# on a server without a toolchain: the binary, the sync-floor preload
# library and the checked-in profiles (both found relative to the binary),
# and the report schemas.
install(TARGETS disktune RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The sync-floor preload library `exec` loads into its command on a class
# with a sync floor; found relative to the binary.
install(TARGETS disktune_syncfloor LIBRARY DESTINATION ${DISKTUNE_SYNCFLOOR_INSTALL_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/profiles/
  DESTINATION ${DISKTUNE_PROFILES_INSTALL_DIR}
  FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/reports/schema/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/disktune/schema
  FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME disktune)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "disktune maintainers <disktune@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "measure a server's disk and tune embedded key-value engines for it")
set(CPACK_PACKAGE_DESCRIPTION
  "disktune probes a disk (direct-I/O latency and IOPS, fsync families, \
write cache and flush behaviour), runs db_bench scenarios on embedded \
engines (LevelDB, RocksDB, SQLite3, Kyoto Cabinet, LMDB, Berkeley DB), \
recommends engine settings, and compares results across a fleet.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
# Depends: computed by dpkg-shlibdeps from the libraries the binary links
# (the engines' shared libraries, liburing, snappy, libstdc++), so the
# package needs no -dev package and no compiler.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# fio cross-checks the probes (--with-fio); mkfs.xfs and mkfs.ext4 serve the
# filesystem matrix. disktune runs without them and says what it skipped.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fio, xfsprogs, e2fsprogs")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "hdparm")
set(CPACK_STRIP_FILES ON)
include(CPack)
