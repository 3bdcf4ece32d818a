// GnuTLS, the TLS library libmicrohttpd is built with, for `routemap healthcheck`'s HTTPS probe.
// Forwarders only: named constants for the macros Swift does not import.
#ifndef CGNUTLS_SHIM_H
#define CGNUTLS_SHIM_H

#include <gnutls/gnutls.h>

static const unsigned int CGNUTLS_CLIENT = GNUTLS_CLIENT;

#endif
