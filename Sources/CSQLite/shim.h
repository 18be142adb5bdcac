// SQLITE_TRANSIENT is a cast macro Swift cannot import.
#ifndef PAYWALLSIM_CSQLITE_SHIM_H
#define PAYWALLSIM_CSQLITE_SHIM_H
#include <sqlite3.h>
static inline int pws_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes) {
    return sqlite3_bind_text(stmt, index, text, bytes, SQLITE_TRANSIENT);
}
/* `bytes` bytes of UTF-8 at `text` (never NULL: an empty string binds as empty text, not NULL). */
static inline int pws_sqlite_bind_utf8(sqlite3_stmt *stmt, int index, const void *text, int bytes) {
    return sqlite3_bind_text(stmt, index, text ? (const char *)text : "", bytes, SQLITE_TRANSIENT);
}
static inline int pws_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int bytes) {
    return sqlite3_bind_blob(stmt, index, data, bytes, SQLITE_TRANSIENT);
}
static inline void pws_sqlite_result_blob(sqlite3_context *context, const void *data, int bytes) {
    sqlite3_result_blob(context, data, bytes, SQLITE_TRANSIENT);
}
#endif
