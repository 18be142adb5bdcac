/// The ledger's schema, one migration per version. Never edit a shipped migration: append one.
enum LedgerSchema {
    static let migrations = [
        // 1: the walking skeleton.
        """
        CREATE TABLE identities (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('anonymous', 'account')),
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE purchases (
            original_transaction_id TEXT PRIMARY KEY,
            product_id TEXT NOT NULL,
            owner_id TEXT NOT NULL REFERENCES identities(id),
            device_id TEXT NOT NULL,
            expires_ms INTEGER,
            updated_ms INTEGER NOT NULL
        );
        CREATE INDEX purchases_by_owner ON purchases(owner_id);
        CREATE TABLE audit (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at_ms INTEGER NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL
        )
        """,
        // 2: accounts, unclaimed purchases (known from Apple's notifications before any app reported
        // them), Apple's state per purchase, ownership moves, notifications, refresh tokens.
        """
        CREATE TABLE purchases_v2 (
            original_transaction_id TEXT PRIMARY KEY,
            product_id TEXT NOT NULL,
            owner_id TEXT REFERENCES identities(id),
            device_id TEXT NOT NULL,
            expires_ms INTEGER,
            revoked INTEGER NOT NULL DEFAULT 0,
            billing_issue INTEGER NOT NULL DEFAULT 0,
            grace_expires_ms INTEGER,
            auto_renew INTEGER NOT NULL DEFAULT 1,
            apple_signed_ms INTEGER NOT NULL DEFAULT 0,
            updated_ms INTEGER NOT NULL
        );
        INSERT INTO purchases_v2 (original_transaction_id, product_id, owner_id, device_id, expires_ms, updated_ms)
            SELECT original_transaction_id, product_id, owner_id, device_id, expires_ms, updated_ms FROM purchases;
        DROP TABLE purchases;
        ALTER TABLE purchases_v2 RENAME TO purchases;
        CREATE INDEX purchases_by_owner ON purchases(owner_id);
        CREATE TABLE accounts (
            identity_id TEXT PRIMARY KEY REFERENCES identities(id),
            email TEXT NOT NULL UNIQUE,
            salt BLOB NOT NULL,
            iterations INTEGER NOT NULL,
            hash BLOB NOT NULL
        );
        CREATE TABLE ownership_moves (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            original_transaction_id TEXT NOT NULL REFERENCES purchases(original_transaction_id),
            from_id TEXT REFERENCES identities(id),
            to_id TEXT NOT NULL REFERENCES identities(id),
            via TEXT NOT NULL CHECK (via IN ('purchase', 'restore', 'transfer')),
            at_ms INTEGER NOT NULL
        );
        CREATE INDEX moves_by_purchase ON ownership_moves(original_transaction_id, at_ms);
        CREATE TABLE notifications (
            uuid TEXT PRIMARY KEY,
            original_transaction_id TEXT NOT NULL,
            type TEXT NOT NULL,
            subtype TEXT,
            signed_ms INTEGER NOT NULL,
            received_ms INTEGER NOT NULL,
            applied INTEGER NOT NULL
        );
        CREATE TABLE refresh_tokens (
            token_hash BLOB PRIMARY KEY,
            identity_id TEXT NOT NULL REFERENCES identities(id),
            expires_ms INTEGER NOT NULL,
            used INTEGER NOT NULL
        )
        """,
        // 3: the device an anonymous identity was created for: the same phone restoring the same receipt
        // again gets that identity back instead of moving the purchase a second time.
        """
        ALTER TABLE identities ADD COLUMN device_id TEXT
        """,
        // 4: what became of each notification (applied, stale, test, ignored); the audit's hash chain
        // (SHA-256 of the previous row's hash and this row's content) and, for every change of a purchase
        // or a refresh token, the row as it stood after it, so `check --ledger` can tell an edit, a
        // deletion or a revival from a change the server made.
        """
        ALTER TABLE notifications ADD COLUMN result TEXT;
        ALTER TABLE audit ADD COLUMN subject TEXT;
        ALTER TABLE audit ADD COLUMN state TEXT;
        ALTER TABLE audit ADD COLUMN hash BLOB;
        CREATE INDEX audit_by_subject ON audit(subject, seq)
        """,
        // 5: when the server last asked Apple about each purchase (its daily reconciliation), apart from
        // Apple's state: asking changes no state when Apple agrees.
        """
        ALTER TABLE purchases ADD COLUMN apple_checked_ms INTEGER NOT NULL DEFAULT 0
        """,
        // 6: ownership by appAccountToken: which customer each token names (found once, then kept), and
        // the purchase time of the new purchase that last decided a purchase's owner, so a transaction
        // reported again or late moves nothing.
        """
        CREATE TABLE app_account_tokens (
            token TEXT PRIMARY KEY,
            identity_id TEXT NOT NULL REFERENCES identities(id)
        );
        ALTER TABLE purchases ADD COLUMN owner_purchase_ms INTEGER NOT NULL DEFAULT 0
        """,
        // 7: Apple waits for the subscriber's consent to a raised price (renewal info's priceIncreaseStatus 0):
        // never agreed to, it expires at the period's end, so the profile must not say it renews.
        """
        ALTER TABLE purchases ADD COLUMN price_consent_pending INTEGER NOT NULL DEFAULT 0
        """,
        // 8: the product Apple renews a subscription as, when a plan change waits for the next renewal (renewal
        // info's autoRenewProductId): the profile names the plan that will be charged, as Apple's sheet does.
        """
        ALTER TABLE purchases ADD COLUMN renews_as TEXT
        """,
        // 9: the refresh token each one was issued in exchange for: a phone whose answer to a refresh was lost keeps
        // the token it sent, which may be traded again while the one issued for it was never used.
        """
        ALTER TABLE refresh_tokens ADD COLUMN issued_for BLOB
        """,
        // 10: a purchase a family member shares (Apple's inAppOwnershipType FAMILY_SHARED), fixed with its original
        // transaction: the profile says it is shared by the family, not subscribed to on the phone (session 32).
        """
        ALTER TABLE purchases ADD COLUMN family_shared INTEGER NOT NULL DEFAULT 0
        """,
        // 11: the purchases whose ownership type the ledger does not know: 10 gave every purchase already held 0, and a
        // family member's share kept before it read "Subscribed on this phone" for good (session 33). Nothing the
        // ledger holds tells a share (Apple's inAppOwnershipType was never kept), so the server asks Apple about each
        // (`Backend.askOwnershipTypes`) and takes it off the list; a 0 written since 10 is asked again, harmlessly.
        """
        CREATE TABLE ownership_unasked (original_transaction_id TEXT PRIMARY KEY);
        INSERT INTO ownership_unasked SELECT original_transaction_id FROM purchases WHERE family_shared = 0
        """,
        // 12: its period now is a free trial that ends in a charge (the transaction's offerDiscountType FREE_TRIAL, no
        // offer's period next): the profile said "renews on" of the day Apple's sheet says the trial ends and what it
        // charges then. A purchase kept before reads 0 until Apple's next word of it (a day at most: reconciliation).
        """
        ALTER TABLE purchases ADD COLUMN in_free_trial INTEGER NOT NULL DEFAULT 0
        """,
    ]
}
