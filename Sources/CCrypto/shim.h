#ifndef PAYWALLSIM_CCRYPTO_SHIM_H
#define PAYWALLSIM_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <stdint.h>

/* ES256 glue: libcrypto does the arithmetic; these only move bytes between JWS's raw forms
   (32-byte scalar, 65-byte uncompressed point, r||s) and the EVP objects. */

/* The P-256 group, for `pws_p256_public_point`: made once by its owner (building it is a quarter of deriving a
   key) and only read after, as EC_POINT_mul reads it; NULL on failure. */
static inline EC_GROUP *pws_p256_group(void) { return EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1); }

/* The public point of the P-256 scalar `priv32` in `group` (`pws_p256_group`), uncompressed (65 bytes).
   1 on success. */
static inline int pws_p256_public_point(const EC_GROUP *group, const uint8_t *priv32, uint8_t *pub65) {
    int ok = 0;
    BIGNUM *d = BN_bin2bn(priv32, 32, NULL);
    EC_POINT *point = group ? EC_POINT_new(group) : NULL;
    if (group && d && point && !BN_is_zero(d) && BN_cmp(d, EC_GROUP_get0_order(group)) < 0
        && EC_POINT_mul(group, point, d, NULL, NULL, NULL) == 1
        && EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, pub65, 65, NULL) == 65)
        ok = 1;
    EC_POINT_free(point);
    BN_clear_free(d);
    return ok;
}

/* A P-256 key from its public point and, to sign, its scalar (NULL for a public key only). */
static inline EVP_PKEY *pws_p256_key(const uint8_t *priv32, const uint8_t *pub65) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    BIGNUM *d = priv32 ? BN_bin2bn(priv32, 32, NULL) : NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (builder && context && (!priv32 || d)
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, pub65, 65)
        && (!d || OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, d))
        && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL
        && EVP_PKEY_fromdata_init(context) == 1)
        EVP_PKEY_fromdata(context, &key, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params);
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    BN_clear_free(d);
    OSSL_PARAM_BLD_free(builder);
    return key;
}

/* A DER ECDSA signature as JWS carries it: r and s, 32 bytes each. 1 on success. */
static inline int pws_es256_raw(const unsigned char *der, size_t derLength, uint8_t *signature64) {
    const unsigned char *cursor = der;
    ECDSA_SIG *parsed = d2i_ECDSA_SIG(NULL, &cursor, (long)derLength);
    const BIGNUM *r = NULL, *s = NULL;
    int ok = 0;
    if (parsed) {
        ECDSA_SIG_get0(parsed, &r, &s);
        ok = BN_bn2binpad(r, signature64, 32) == 32 && BN_bn2binpad(s, signature64 + 32, 32) == 32;
        ECDSA_SIG_free(parsed);
    }
    return ok;
}

/* ECDSA P-256 with SHA-256 of `message`, written as JWS wants it: r and s, 32 bytes each. */
static inline int pws_es256_sign(EVP_PKEY *key, const uint8_t *message, size_t length, uint8_t *signature64) {
    int ok = 0;
    unsigned char der[80];
    size_t derLength = sizeof der;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestSign(context, der, &derLength, message, length) == 1) {
        ok = pws_es256_raw(der, derLength, signature64);
    }
    EVP_MD_CTX_free(context);
    return ok;
}

/* `key`'s signing context, set up once: `pws_es256_sign_with` then signs without fetching the algorithm
   and building a context for every signature (EVP_DigestSignInit: about a sixth of a signature). */
static inline EVP_PKEY_CTX *pws_es256_signer(EVP_PKEY *key) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (context && EVP_PKEY_sign_init(context) == 1 && EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1)
        return context;
    EVP_PKEY_CTX_free(context);
    return NULL;
}

/* `pws_es256_sign` with a context from `pws_es256_signer` and SHA-256 fetched once: ECDSA of the digest is
   what EVP_DigestSign computes. The message's SHA-256 is left in `digest32`. */
static inline int pws_es256_sign_with(EVP_PKEY_CTX *signer, const EVP_MD *sha256, const uint8_t *message,
                                      size_t length, uint8_t *signature64, uint8_t *digest32) {
    unsigned char der[80];
    unsigned int digestLength = 0;
    size_t derLength = sizeof der;
    if (EVP_Digest(message, length, digest32, &digestLength, sha256, NULL) != 1 || digestLength != 32
        || EVP_PKEY_sign(signer, der, &derLength, digest32, 32) != 1)
        return 0;
    return pws_es256_raw(der, derLength, signature64);
}

/* ECDSA P-256 of a SHA-256 digest with a context from `pws_es256_signer`, as r||s. */
static inline int pws_es256_sign_digest_with(EVP_PKEY_CTX *signer, const uint8_t *digest32, uint8_t *signature64) {
    unsigned char der[80];
    size_t derLength = sizeof der;
    if (EVP_PKEY_sign(signer, der, &derLength, digest32, 32) != 1) return 0;
    return pws_es256_raw(der, derLength, signature64);
}

/* Whether `signature64` (r||s) is `key`'s ES256 signature of `message`. */
static inline int pws_es256_verify(EVP_PKEY *key, const uint8_t *message, size_t length, const uint8_t *signature64) {
    int ok = 0;
    ECDSA_SIG *parsed = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(signature64, 32, NULL), *s = BN_bin2bn(signature64 + 32, 32, NULL);
    unsigned char *der = NULL;
    int derLength = 0;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (parsed && r && s && ECDSA_SIG_set0(parsed, r, s) == 1) {
        r = s = NULL; /* owned by parsed now */
        derLength = i2d_ECDSA_SIG(parsed, &der);
        if (derLength > 0 && context && EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, key) == 1)
            ok = EVP_DigestVerify(context, der, (size_t)derLength, message, length) == 1;
    }
    EVP_MD_CTX_free(context);
    OPENSSL_free(der);
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(parsed);
    return ok;
}

/* An HMAC-SHA256 context keyed with `key`, from the fetched `mac` ("HMAC"): kept by its owner and
   duplicated for each message, so the key's pads and the digest are set up once. NULL on failure. */
static inline EVP_MAC_CTX *pws_hmac_sha256_keyed(EVP_MAC *mac, const uint8_t *key, size_t length) {
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    char digest[] = "SHA256";
    OSSL_PARAM params[2] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                            OSSL_PARAM_construct_end()};
    if (context && EVP_MAC_init(context, key, length, params) == 1) return context;
    EVP_MAC_CTX_free(context);
    return NULL;
}

/* The MAC of `message` under the keyed context `keyed` (left as it was). 1 on success. */
static inline int pws_hmac_sha256_mac(const EVP_MAC_CTX *keyed, const uint8_t *message, size_t length, uint8_t *mac32) {
    EVP_MAC_CTX *context = EVP_MAC_CTX_dup(keyed);
    size_t written = 0;
    int ok = context && EVP_MAC_update(context, message, length) == 1
        && EVP_MAC_final(context, mac32, &written, 32) == 1 && written == 32;
    EVP_MAC_CTX_free(context);
    return ok;
}

/* ECDSA P-256 of a SHA-256 digest computed by the caller (a receipt's hash carried on from a kept
   EVP_MD_CTX state), written as r||s like pws_es256_sign. */
static inline int pws_es256_sign_digest(EVP_PKEY *key, const uint8_t *digest32, uint8_t *signature64) {
    int ok = 0;
    unsigned char der[80];
    size_t derLength = sizeof der;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new(key, NULL);
    if (context && EVP_PKEY_sign_init(context) == 1 && EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1
        && EVP_PKEY_sign(context, der, &derLength, digest32, 32) == 1) {
        ok = pws_es256_raw(der, derLength, signature64);
    }
    EVP_PKEY_CTX_free(context);
    return ok;
}
#endif
