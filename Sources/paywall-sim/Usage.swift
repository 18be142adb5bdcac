/// The help texts.
enum Usage {
    static let overview = """
        paywall-sim: a white-label app's subscription flow, simulated in the terminal.

        Usage: paywall-sim [COMMAND] [OPTIONS]

        Commands:
          run       Open the app in the terminal (the default command)
          screens   Print every screen of an app as text
          apps      List the bundled demo apps
          check     What the paywall shows and why (--paywall); the ledger's invariants (--ledger)
          bench     Run the benchmarks and print their figures
          play      Run scenario files headless and report them
          compare   Run one scenario in two or more worlds (a policy, latency, storefront…) and show where they diverge
          fuzz      Random sessions checked against the invariants; a failure is shrunk to a scenario

        Run `paywall-sim COMMAND --help` for a command's options.
        Exit codes: 0 ok, 1 failures found, 2 bad usage or bad input.
        """

    static let run = """
        Usage: paywall-sim [run] [--storekit FILE.storekit] [--app NAME|PATH] [--state DIR | --ephemeral]
                               [--seed N] [--latency PROFILE] [--inject RULES] [--record FILE]
               paywall-sim run --walk FILE|DIR [--report FILE]

        Opens a white-label app on a simulated phone, beside the timeline of every message
        between the app, the fake App Store and the backend.

        Options:
          --storekit FILE    An Xcode .storekit file: an app built around it (every auto-renewable
                             subscription an offer, each group an access level, a generated feed), its
                             settings honoured; with --app, that app's text and order selling from the file.
                             What the file holds and the simulator ignores is a warning on stderr.
          --app NAME|PATH    A bundled demo app (see `paywall-sim apps`) or a config file. Default: daily-news
          --state DIR        Where the App Store, the backend and the phones keep their state; a run
                             reopens it on the phone the last one left on screen.
                             Default: $XDG_STATE_HOME/paywall-sim/APP, else ~/.local/state/paywall-sim/APP
                             (for a .storekit file, APP is its name and a short hash of its path)
          --ephemeral        Keep everything in memory; nothing is written to disk. Passwords are hashed
                             with 1 PBKDF2 iteration (a state folder: 10,000), as nobody logs in again
          --seed N           Seed of every random choice (latency draws). Default: 1
          --latency PROFILE  none, fast, typical, slow or flaky. Default: typical
          --inject RULES     Faults to inject, as TARGET FAULT [times N | always | chance P], rules
                             separated by ";". Store targets: products-request, payment, receipt,
                             receipt-refresh (error, timeout, missing, or cancelled: the reader
                             cancels Apple's sign-in), notification. Backend targets: backend (every call of
                             the app), receipts, restores, transfers, accounts, sessions, me, content,
                             notifications (Apple's posts: retried 1, 12, 24, 48, 72 h after a failure).
                             Example: --inject "payment deferred; receipts error times 2"
          --record FILE      Record the session as a scenario and write it to FILE when the app quits
                             (a new state folder or --ephemeral: a recording starts from an empty world)
          --walk FILE|DIR    Guided walk for QA: a checklist pane lists the scenarios (by title, else file
                             name). Enter on one builds its world from its setup and runs the steps before
                             the first reader action; you do the rest by hand on the phone (each step is
                             ticked as the app reports it) and the world steps with n or the controls.
                             An expectation is checked once the steps before it are done: green while it
                             holds; when you do the next step it is settled, red if it did not hold then.
                             Every world is in memory (no --state, no --record).
          --report FILE      Where s writes the walk's report (Markdown). Default: ./walk-report.md
          -h, --help         Show this help

        Keys: ↑/↓ or k/j move, Enter selects, Esc goes back, Tab moves focus (phone, timeline, controls),
        c jumps to the controls, f filters the timeline, r starts and stops recording (recording-N.scenario
        in the working directory), ? lists every key, q quits.
        In a walk: w jumps to the checklist; there ↑/↓ and Enter choose a scenario, n does the next step
        when it is not the reader's, s saves the report, l shows the list again.
        """

    static let screens = """
        Usage: paywall-sim screens [--storekit FILE] [--app NAME|PATH] [--width N]

        Prints every screen of the app as text, in the order a reader meets them: each with a caption,
        headed by its identifier. The golden snapshots in Tests/Snapshots hold the same text.

        Options:
          --storekit FILE  An app built around an Xcode .storekit file (see run --help)
          --app NAME|PATH  A bundled demo app or a config file. Default: daily-news
          --width N        The phone's width in columns, 24 to 120. Default: 40
          -h, --help       Show this help
        """

    static let check = """
        Usage: paywall-sim check --paywall [--storekit FILE] [--app NAME|PATH] [--storefront CODE] [--locale ID]
               paywall-sim check --ledger [--state DIR | --app NAME|PATH | --storekit FILE]

        --paywall prints the offers the paywall will show, in the owner's order, with the store's
        words in the owner's text, why each configured product the store did not return is left out,
        and why the catalog's other products (consumables, non-consumables, non-renewing subscriptions)
        are not on a subscription paywall.

        --ledger verifies the backend ledger's invariants: SQLite's integrity check, foreign keys, at most
        3 ownership moves per purchase in any 30 days, an unbroken chain of owners, no restore from
        an account to a guest; the audit's hash chain, and every purchase and refresh token as its last
        audit row left it (a row edited, deleted or revived is found); and, against appstore.sqlite
        beside it, no revocation lost and no expiry later than Apple's (a purchase Apple's news is still on
        its way about, which the next run delivers, is noted, not a violation). It opens both files
        read-only and never writes. Exit 0 when it holds, 1 with each violation listed, 2 for a file that is
        not a ledger.

        Options:
          --paywall     Show what the paywall will show and why
          --storekit FILE   An app built around an Xcode .storekit file (see run --help): its paywall, its
                            default state directory
          --storefront CODE The paywall in another storefront (USA, GBR, FRA, …)
          --locale ID   The paywall in another locale (en_US, fr_FR, …)
          --ledger      Check the ledger (backend.sqlite)
          --state DIR   The state directory. Default: the app's under $XDG_STATE_HOME/paywall-sim/
          --app NAME|PATH   Which app's default state directory, the app read as run reads it. Default: daily-news
          -h, --help    Show this help
        """

    static let bench = """
        Usage: paywall-sim bench [NAME] [--count N] [--state DIR] [--seed N] [--progress]

        Runs one benchmark, or all, and prints its figures. Build with -c release for figures worth quoting.

        Options:
          --count N     How many operations (each benchmark has its default)
          --state DIR   ledger and lifecycle: keep their databases and phones in DIR, not in a temporary folder
                        they remove. They write purchases, renewals and refunds into it, so DIR must be new,
                        empty, or one an earlier bench made (they carry on in it); a run's state folder is
                        refused. fuzz and terminal: make a folder of their own inside DIR and remove it. The
                        others do not use --state
          --seed N      The seed of the lifecycle benchmark's choices (default 1)
          --progress    Print a progress line every 50 operations (lifecycle: every step, and every event in it)
          -h, --help    Show this help

        Benchmarks:

        """

    static let fuzz = """
        Usage: paywall-sim fuzz [--app NAME|PATH|all | --storekit FILE] [--runs N] [--steps N] [--seed N] [--out DIR]
                                [--state DIR] [--session N] [--defect NAME] [--invariants N,N…]

        Generates random sessions: anything a reader, a parent, the App Store, the network or time
        can do, with random faults (on every store and backend target, the server's endpoint for
        Apple's notifications too; once, twice, by chance or for the whole session; slow answers
        late by 2 s, 10 s or 30 s) and latency, on a phone set to one of the languages Apple's
        sheets speak (en, fr, de, es, it, ja, pt); one step in ten comes before the answers of the
        one before have arrived, buttons are tapped twice at once, the clock jumps past a year,
        held payments are approved (with the backend failing) or resolved. After every step it
        checks the invariants:
          1 nothing unlocks without the backend's word
          2 content is unlocked exactly when the levels meet it; no cache for a level not held
          3 no second charge for a subscription group the Apple ID already pays for, and no parent
            asked to approve a payment of the plan it pays for, renewing as it is (Apple says it is
            already subscribed)
          4 at most one payment in flight, whichever launch of the app added it (a request waiting for
            a parent is one, for its subscription group); a cancellation never shows an error; once nothing is on its way and Apple shows no
            sheet, the app waits for no answer (a purchase, a sign-in, a move)
          5 nothing paid is lost: a restore from a new phone gives its owner the access (end of session)
          6 a purchase moves at most 3 times in 30 days; the ledger holds (`check --ledger`)
          7 anonymous levels survive a restart or a kill; ads follow the owner's rule
          8 the paywall shows configured ∩ returned (a subscriber's less the groups held), in the owner's order
          9 what the reader is told is true: "purchased", "restored", "moved" come with the levels;
            "nothing to restore" only when nothing is paid for, and moving nothing; "your payment
            went through" only after a charge; no failure while access arrives, nor of a restore or a
            move to the account the server made (a lost answer excuses nothing); "another account", "held elsewhere",
            "moved too often" and "already pays" only when the ledger and Apple say so; "you were not
            charged" only with no charge, and not left on screen (nor "Waiting for approval") once the
            phone's payment is charged, nor "Waiting for approval" once a parent answered and no
            request waits (a switch declined or a request lapsed, which Apple tells the app nothing of:
            once the app became active since); "Purchases are off" only while the phone cannot pay,
            "Purchase in progress" only while one runs; "Purchase complete" only of a purchase, never
            of a renewal Apple delivers (a billing recovery is "Subscription active again");
            "not active" never of a subscription just paid for whose levels the phone holds;
            "ends unless you agree" never of a renewal Apple makes at an offer's price (that the
            server was told of); "renews" never of a family share the purchaser's renewal ends;
            "Subscribed on this phone" never where only a family member's shared purchase gives
            access, "Shared by your family" never of the Apple ID's own purchase; "Your subscription
            is back" (or "already had a subscription") never where only a family share gives access,
            "your family shares" never where none does;
            "renews on" or "ends on" never of a day the phone's clock passed; a plan named by the
            App Store's title, never by its product identifier (alerts, paywall, profile, manage sheet);
            "use Restore purchase" never where the move limit or the policy
            refuses it and nothing else of the group (a family share too) would come, in any
            purchase alert (a check that failed after paying too); "Move it?" never of a move the
            server would refuse; the move limit named only where it is the reason
         10 a paying reader keeps access: every paid subscription an anonymous identity owns is kept
            by a phone; an unlocked article loads; after a restart or a return to the foreground the
            phone shows the levels its identity owns (unless a fault fired meanwhile); a signed-in
            reader is signed out only by logging out, or told the session ended when the server
            refused to renew it (its refresh token spent or expired, or an injected 401), and
            never by time alone while the phone shows levels, a session it refreshed within a year
            and Apple's billing retry; a renewal Apple charges while the app runs reaches it (a
            recovery past the grace period too, and a family member's share of it on their phone)
         11 no silent charge: a new purchase charged ends in access on the paying phone, or in a
            message (an error, a wait) the reader sees; one no purchase on screen waited for (a held
            payment settled while the app ran), or whose app was quit before the reader heard of it
            (judged in the paying phone's next launch), ends in a message, access or not
         12 a purchase changes owner no more often than the reader asked (restore, transfer, purchase;
            the same button twice at once is one ask); a transfer only to the account it was asked
            for, a new purchase only to who paid (the customer its appAccountToken names); a restore
            never against the owner's restore policy (kept with the original owner, or moved only
            from an owner it gives no access)
         13 Apple's sheet agrees with the paywall on the product, price, period and free trial,
            heads with what it charges now (a paid offer's price, introductory or
            promotional), and a payment it confirmed
            at an offer's price is charged at that price or not at
            all (held for a parent or an interruption too); its manage sheet lists what the App
            Store holds for the phone's Apple ID, every subscription Apple may still charge
            (billing retry too) among it; its price-consent sheet threatens no end while an offer's
            periods are due; an Apple ID gets one introductory offer per subscription
            group, at any charge (a switch of plan renews at the price the manage sheet showed)
         14 family-shared access only while the purchaser shares: whoever in the family buys a
            shareable product that stands, everyone else is given a share of it; a FAMILY_SHARED purchase
            is live only in the family, and the backend grants nothing after Apple's REVOKE; and
            it grants the share while the purchaser's subscription gives access (grace too); a
            share Apple takes back while the member's app runs (sharing off, a member leaving, a
            refund, a revoke) leaves none of its levels on that phone the backend no longer grants
         15 in a kids app or for an under-age reader, every payment that reaches Apple follows a right
            answer to the parental gate on that phone, and the phone's next gate does not ask again
            the question a grown-up was just seen answering
         16 a refund or a revocation takes access back: the backend grants nothing from a subscription
            whose latest transaction Apple revoked (unless a fault since kept the news from it and
            the backend has not asked Apple about it since)
         17 restore before purchase: a signed-in reader is never sent to Apple's sheet for a group the
            Apple ID already pays for with a purchase the account holds, nobody holds, or the ownership
            rules let it take or keep from it (the move limit, the policy), nor told purchases are off
            for it (unless a fault since the purchase began stopped the app's check before it answered);
            a guest is never sent there for a group the family already shares with the Apple ID
         18 receipt refresh done once for all who wait: an app never asks Apple for a receipt while
            its own request for one has not answered
         19 the subscription page is for readers who have not subscribed: once the world settled,
            neither the paywall nor its parental gate is left open to a reader holding levels,
            unless it offers a group they lack for its locked article; a subscriber who taps
            Subscribe lands on a paywall of the groups not held, or on the profile when they hold
            every group on sale; a purchase closes the paywall only
            once the server's levels reached the phone, onto the screen it was opened from
         20 a price increase waiting for consent is asked when the app becomes active: a launch or a
            return to the foreground shows Apple's consent sheet unless another sheet is up; and
            Apple ends a subscription for a raised price only when the plan it renews as was
            raised since the subscriber chose that plan
         21 where the owner requires an account after subscribing, a reader holding levels without
            one is shown nothing but the request to log in or sign up, or the form opened from it;
            a reader without one who holds nothing (refunded, expired) is not kept on it; a signed-in
            reader is offered no log-in or sign-up on any screen
         22 the app checks that the phone can make payments before handing Apple a payment: Apple
            never refuses one for a phone that cannot pay
         23 a reader who subscribed without an account and signs in is asked whether to move the
            subscription to the account (or it moves, signing in from the owner's request), or told
            when it can move where the server refuses the move for the move limit (9 judges the date)
         24 a stray key moves no money: Apple's sheets open on a choice that neither pays nor changes a
            subscription (Cancel, Not now, Done)
        The first violation is shrunk to a few steps and written as a scenario that fails the same
        way under `paywall-sim play`. The same seed gives the same sessions. Sessions hash
        passwords with 1 PBKDF2 iteration (a state folder a person uses: 10,000), and run SQLite's
        integrity check and the whole ledger check once, at the end of each session.
        Exit 0 when every session held, 1 when one broke an invariant, 2 for bad usage.

        Options:
          --app NAME|PATH|all  The app to fuzz; all takes the bundled demo apps in turn. Default: all
          --storekit FILE      Fuzz the app built around an Xcode .storekit file
          --runs N             Sessions. Default: 2000
          --steps N            Steps per session. Default: 60
          --seed N             Default: 1
          --out DIR            Where a shrunk failure is written. Default: fuzz-failures
          --state DIR          Keep the sessions' worlds on disk in a fresh folder inside DIR, removed
                               at the end (DIR and what it held are left as they were)
          --session N          Run only session N of the run (the same steps as among the others),
                               for instance the one a crash stopped at
          --defect NAME        Break a rule of the app on purpose, to watch the fuzzer catch it:
                               unlock-on-purchased, second-payment, keep-cache, and issue 12's
                               defects planted again: restore-twice, anonymous-token-expires,
                               restored-without-access, silent-approval; skip-parental-gate,
                               skip-restore-before-purchase, refresh-per-caller,
                               pay-for-first-offer, not-active-after-paying, skip-price-consent,
                               alert-on-cancel, forget-unanswered-receipt, skip-account-required,
                               skip-payments-check, close-paywall-to-feed, skip-transfer-offer,
                               subscriber-tap-ignored, close-before-server-check,
                               manage-sheet-from-account, silent-session-end,
                               restore-ignores-who-paid, status-ignores-who-paid,
                               pay-unreturned-product, payment-known-by-product (these five
                               are rare in a run: their scenarios in scenarios/found-by-hand fail
                               with them), transfer-moves-ended, consent-follows-the-subscription,
                               gate-asks-one-question, recovery-kept-from-the-app (rare too:
                               found-by-hand/430 and 524 fail with it), revocation-kept-from-the-app,
                               ads-hidden-from-every-subscriber, restore-ignores-policy,
                               foreground-keeps-levels,
                               guess-unchecked-restore (rare: UncheckedRestoreTests fail with it),
                               form-sends-twice (rare: found-by-hand/472 fails with it),
                               title-by-identifier, unsold-plan-said-to-renew,
                               silent-decline, same-log-in-refused-early (rare:
                               found-by-hand/493 fails with it), found-meanwhile-unfounded,
                               replaced-refresh-token-traded-again,
                               charge-told-again-as-first-told (rare: --seed 5 and
                               found-by-hand/518 find it),
                               went-elsewhere-told-at-once (rare: found-by-hand/523 fails with it),
                               refresh-cancel-told-as-error,
                               charge-hidden-behind-another-alert,
                               profile-trial-told-as-renewal,
                               trial-told-as-charge,
                               profile-keeps-moved-guest-plans
          --invariants N,N…    Judge only these invariants (numbers above): a break of another is
                               neither reported nor ends a session. Default: all
          -h, --help           Show this help
        """

    static let play = """
        Usage: paywall-sim play FILE|DIR… [--junit FILE] [--tap] [--markdown] [--jobs N] [--list-faults]
               paywall-sim play --live FILE [--pace SECONDS] [--cast OUT.cast]

        Runs scenarios (*.scenario; folders are searched) on the virtual clock and prints a table:
        scenario, result, steps, virtual time covered. A failure shows file:line, the step, expected
        vs actual, the rendered screen and the end of the timeline.
        Exit 0 when all pass, 1 if any failed, 2 for a malformed file (file:line and what is wrong; with
        --tap, Bail out!; with --junit, the other files run and the malformed one is an error case).

        Options:
          --junit FILE   Also write the results as JUnit XML (Surefire's shape; wall-clock time, the
                         virtual time as a property)
          --tap          Print TAP version 13 instead of the table
          --markdown     Print "What happens | What the reader sees | Result" from title and sees, then
                         each scenario's messages as a Mermaid sequence diagram
          --jobs N       Run the files in N parallel processes. Default: 1
          --list-faults  Print every fault target and its faults, as inject takes them
          --live         Play one scenario in the terminal at a human pace, for a demo: each step's
                         # comment (on its line, or the lines just above) is shown as a caption.
                         Space pauses and resumes, q quits. Expectations are checked as play checks them;
                         at the end the pane says passed or the step that failed, and q prints the table.
          --pace SECONDS Time between steps with --live, 0 to 60. Default: 1.5
          --cast FILE    With --live: write the replay as an asciicast v2 recording instead of showing it,
                         a frame per step at the pace in virtual seconds (the same file every time)
          -h, --help     Show this help

        One step per line; # starts a comment.
        Setup:   app NAME|PATH, storekit FILE.storekit (the app built around it; after app CONFIG,
                 that app selling from it), title TEXT, sees TEXT, seed N, storefront CODE, locale ID, device NAME,
                 apple-id EMAIL, account EMAIL PASSWORD, latency PROFILE,
                 inject TARGET FAULT [times N | always | chance P], finish before|after,
                 restore-policy NAME, refresh-token-lifetime DURATION (the server's, a year and 60 days unless set),
                 ads-for-subscribers shown|hidden (the owner's choice; the config's unless set)
        Actions: launch, open feed|paywall|profile|login|signup, open content ID, back, select offer ID,
                 double-tap offer ID, subscribe, answer gate (a grown-up's right answer to the question shown),
                 answer gate TEXT (typed as is: "" is empty; below 36 is wrong whatever the seed asks),
                 confirm payment, cancel payment, restore,
                 login EMAIL PASSWORD, signup EMAIL PASSWORD, logout, accept transfer, decline transfer,
                 manage subscription, cancel|resume auto-renew [PRODUCT] (the subscription on it; the first one without),
                 switch plan PRODUCT, parent approve, parent decline,
                 advance DURATION (3s, 2d, 1mo, 1y), background, foreground, restart app, new device NAME,
                 phone NAME (a phone the world has back on screen, its app started on what it kept), kill,
                 store renew|expire|refund|revoke|billing-issue|recover|resolve-interrupted|price-increase
                 (billing-issue: with a grace period as the .storekit file's or the config's store settings say,
                 on where neither says), store billing-issue grace|no-grace (with or without, whatever they say),
                 store upgrade|downgrade|crossgrade PRODUCT, store price-increase PRODUCT PRICE,
                 store refund|revoke|expire|approve|decline|resolve-interrupted ID (run's t lists the ids),
                 next purchase ok|fails|cancelled|deferred|interrupted, ask-to-buy on|off,
                 payments allowed|restricted, remove receipt,
                 clear faults TARGET (an App Store target: products-request, payment, receipt, receipt-refresh,
                 notification),
                 family add|remove APPLE_ID (a member's own phone comes on screen as they join),
                 family sharing on|off, redeem code CODE (an offer code on the App Store),
                 reader-age N|adult (under 18, every purchase asks the parental gate); after launch the settings
                 storefront, locale, latency, inject and finish are actions too
        Expect:  expect screen ID, expect offers ID, ID…, expect levels L, L… | none,
                 expect identity anonymous | account EMAIL | none, expect content ID locked|unlocked,
                 expect ads shown|hidden, expect alert "TEXT", expect no alert, expect text "TEXT",
                 expect no text "TEXT", expect charges N [APPLE_ID] (every Apple ID's unless one is named),
                 expect pending payment, expect timeline [once] "TEXT" (once: on exactly one line),
                 expect invariants (the fuzzer's, at every step so far), expect nothing lost (a new phone of each Apple ID holding a subscription
                 restores and every paid subscription gives its owner access); a no-break space in TEXT's
                 match reads as a space
        Also:    try STEP (an action that may not be possible on the screen: the run goes on),
                 without waiting STEP (the next step comes before answers on their way arrive),
                 defect NAME (a rule of the app broken on purpose: any name `fuzz --help` lists under
                 --defect)
        Compare: vary KEY=V1,V2, expect diverge [at STEP], when KEY=VALUE STEP (see compare --help)
        """

    static let compare = """
        Usage: paywall-sim compare FILE|DIR… [--vary KEY=V1,V2[,V3…]]
               paywall-sim compare FILE --vary KEY=V1,V2 --live

        Runs the same scenario, with the same seed, in one world per value of KEY, step by step in
        lockstep, and prints where the worlds diverge: each step after which what they show changed while
        they differed (the first marked ▶, a return to agreement marked =), with per world the screen, the
        alert, the access levels, the App Store's charges and the ledger's ownership moves; then each
        world's result and a summary.
        Exit 0 when every world passed its expectations and, if the scenario says expect diverge, the
        worlds diverged (at the step it names); 1 otherwise; 2 for bad input (an unknown key or value,
        a malformed scenario: file:line).

        Options:
          --vary KEY=V1,V2  The setting that differs between the worlds; it replaces the scenario's own
                            vary line. KEY is one of
                              finish          before|after: the app finishes Apple's transaction before or
                                              after the server check
                              restore-policy  transfer, keep-with-original-owner, transfer-if-owner-inactive
                              latency         none, fast, typical, slow, flaky
                              storefront      USA, GBR, … (what the app's catalog sells in)
                            or any setup line's word (seed, inject, app, locale, device, apple-id, account,
                            defect), its value the rest of the line; an empty value is a world without it:
                            --vary "inject=receipts error times 1,"
          --live            Open the terminal with the first two worlds side by side: one phone each, and
                            every key goes to both (the reader's keys and the controls, which act on both
                            worlds at once). The timeline is the first world's, with the first line where
                            the two timelines differ marked "≠ the worlds differ from here". The scenario's
                            setup and the steps before its first reader action run first; you do the rest.
          -h, --help        Show this help

        In a scenario (see play --help for the other lines):
          vary KEY=V1,V2            the worlds, so `paywall-sim compare FILE` needs no --vary; play runs
                                    such a file as its comparison
          expect diverge [at STEP]  the worlds must diverge (first after STEP, as written); play fails a
                                    file with it and no vary line: it needs compare
          when KEY=VALUE STEP       a step (often an expectation) only for that world; a value with
                                    spaces is quoted (when "inject=receipts error times 1" STEP), the
                                    world without the line is KEY=(none)
          finish before|after, restore-policy NAME   setup lines for the settings compare varies
        """

    static let apps = """
        Usage: paywall-sim apps

        Lists the bundled demo apps, one line each.
        """
}
