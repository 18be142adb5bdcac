#ifndef PAYWALLSIM_CCRYPTO_SHIM_H
#define PAYWALLSIM_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#endif
