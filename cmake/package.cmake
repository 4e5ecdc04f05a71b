# `cpack` (run in a build folder) makes two Debian packages from the install
# components: logagg (the command line, man pages, completions) and
# liblogagg-dev (the engine library for embedding). Their dependencies on
# Debian's runtime libraries are computed by dpkg-shlibdeps from what the
# binary really links.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME logagg)
set(CPACK_PACKAGE_VENDOR "logagg developers")
set(CPACK_PACKAGE_CONTACT "logagg developers <dev@logagg.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "exact per-second request counts from JSON access logs")
set(CPACK_PACKAGE_DESCRIPTION
    "logagg reads JSON access logs (one object per line), keeps the lines whose app_id is \
alphanumeric and whose timestamp is a valid RFC 3339 date-time, and reports how many \
requests fell in each second. Every line is accounted for: counted, blank or rejected \
with a reason.")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME logagg)
set(CPACK_DEBIAN_CLI_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME liblogagg-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libsimdjson-dev, libabsl-dev, zlib1g-dev, libisal-dev, libzstd-dev, libhowardhinnant-date-dev, libre2-dev, libcpp-httplib-dev, pkg-config")
include(CPack)
