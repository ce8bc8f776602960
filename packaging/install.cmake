# Install and package: `cmake --install build --prefix P` and `cpack -G DEB` (run in the build folder).
# Layout under the prefix:
#   bin/gpuscope, bin/gpuscope-ui
#   lib/gpuscope/      the recorder's injection libraries and gpuscope-peaks (their install() lines live with
#                      their targets in collector/); `gpuscope record` looks in ../lib/gpuscope from its own
#                      directory, so an installed gpuscope finds them wherever the prefix is
#   share/applications/gpuscope.desktop, share/icons/hicolor/<size>/apps/gpuscope.png (and scalable/ .svg)
#   share/man/man1/gpuscope.1 (and gpuscope-ui.1)
#   share/gpuscope/python/gpuscope_recipe/  the Dask driver of `gpuscope recipe`, which finds it from its own
#                      directory as ../share/gpuscope/python; Dask itself is python3-distributed, a Suggests
# Included last from the top-level CMakeLists.txt, once every target exists.
install(TARGETS gpuscope RUNTIME DESTINATION bin)
if(TARGET gpuscope-ui)
  install(TARGETS gpuscope-ui RUNTIME DESTINATION bin)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/gpuscope.desktop DESTINATION share/applications)
  foreach(size 16 24 32 48 64 128 256)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/gpuscope-${size}.png
            DESTINATION share/icons/hicolor/${size}x${size}/apps RENAME gpuscope.png)
  endforeach()
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/gpuscope.svg DESTINATION share/icons/hicolor/scalable/apps)
endif()
install(FILES ${CMAKE_CURRENT_LIST_DIR}/gpuscope.1 DESTINATION share/man/man1)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/gpuscope_recipe DESTINATION share/gpuscope/python
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
if(TARGET gpuscope-ui)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/gpuscope.1 DESTINATION share/man/man1 RENAME gpuscope-ui.1)
endif()

# The .deb. Depends are the Debian 12 runtime packages of what gpuscope links (Qt 6.4 with Charts, SQLite);
# written out rather than computed by dpkg-shlibdeps, which fails on a CUPTI that came with the CUDA toolkit
# instead of a package. CUDA itself is not a dependency: the program being recorded brings its own.
set(CPACK_PACKAGE_NAME gpuscope)
set(CPACK_PACKAGE_VENDOR "gpuscope")
set(CPACK_PACKAGE_CONTACT "gpuscope developers <gpuscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU profiler for CUDA programs: timelines, nsys-identical stats, roofline")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# libelf1, liblzma5: `gpuscope record` names the CPU samples' addresses with them (collector/sampling;
# liblzma for the symbols files keep in .gnu_debugdata).
set(GPUSCOPE_DEB_DEPENDS "libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1, libsqlite3-0 (>= 3.35), libelf1 (>= 0.188), liblzma5")
if(TARGET gpuscope-ui)
  string(APPEND GPUSCOPE_DEB_DEPENDS ", libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4)"
         ", libqt6charts6 (>= 6.4), libqt6concurrent6 (>= 6.4), qt6-qpa-plugins")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${GPUSCOPE_DEB_DEPENDS}")
# `gpuscope recipe --mode local|dask-futures` runs on Dask; `--mode serial` and everything else do without.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-distributed")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_GENERATOR DEB)
include(CPack)
