// SQLITE_TRANSIENT is a cast macro Swift cannot import.
#ifndef PAYWALLSIM_CSQLITE_SHIM_H
#define PAYWALLSIM_CSQLITE_SHIM_H
#include <sqlite3.h>
static inline int pws_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes) {
    return sqlite3_bind_text(stmt, index, text, bytes, SQLITE_TRANSIENT);
}
static inline int pws_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int bytes) {
    return sqlite3_bind_blob(stmt, index, data, bytes, SQLITE_TRANSIENT);
}
#endif
