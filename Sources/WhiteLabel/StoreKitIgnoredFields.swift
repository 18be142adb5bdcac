import FoundationEssentials

/// What a `.storekit` file holds that the simulator does not use: one warning per field, so a catalog
/// never loses offer codes, promotional offers or an offer key in silence.
///
/// Bookkeeping (identifiers, reference names, the format version) carries no behaviour and is passed
/// over, as are fields that hold nothing (`[]`, `""`, `false`, `0`).
enum StoreKitIgnoredFields {
    static func warnings(in data: Data, file: String) -> [ConfigError] {
        guard let top = JSONTree.value(data) as? [String: Any] else { return [] }
        var scan = Scan(file: file)
        scan.object(
            top, at: "",
            used: [
                "products", "nonRenewingSubscriptions", "subscriptionGroups", "settings", "subscriptionOffersKeyPair",
            ])
        if let pair = top["subscriptionOffersKeyPair"] as? [String: Any] {
            scan.object(pair, at: "subscriptionOffersKeyPair", used: ["id"])
        }
        for (index, group) in array(top["subscriptionGroups"]).enumerated() {
            let location = "subscriptionGroups[\(index)]"
            scan.object(group, at: location, used: ["id", "name", "subscriptions"])
            for (subIndex, subscription) in array(group["subscriptions"]).enumerated() {
                scan.subscription(subscription, at: "\(location).subscriptions[\(subIndex)]")
            }
        }
        for key in ["products", "nonRenewingSubscriptions"] {
            for (index, product) in array(top[key]).enumerated() {
                scan.object(
                    product, at: "\(key)[\(index)]",
                    used: ["productID", "type", "displayPrice", "localizations", "familyShareable"])
            }
        }
        if let settings = top["settings"] as? [String: Any] {
            let used = [
                "_storefront", "_locale", "_askToBuyEnabled", "_failTransactionsEnabled", "_billingIssuesEnabled",
                "_renewalBillingIssuesEnabled", "_billingGracePeriodEnabled", "_disableDialogs", "_timeRate",
            ]
            scan.object(settings, at: "settings", used: Set(used))
            // A rate Xcode does not have ran the clock in real time without a word (session 25).
            if let number = settings["_timeRate"] as? Double, let rate = Int(exactly: number),
                !StoreKitSettings.knownTimeRates.contains(rate)
            {
                scan.warnings.append(
                    ConfigError(
                        file: file, location: "settings._timeRate",
                        message: "ignored: \(rate) is not one of Xcode's time rates; the clock runs in real time"))
            }
        }
        return scan.warnings
    }

    static func array(_ value: Any?) -> [[String: Any]] {
        (value as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
    }

    private struct Scan {
        let file: String
        var warnings: [ConfigError] = []

        /// Keys that only identify or name things for Xcode's editor.
        static let bookkeeping: Set<String> = [
            "identifier", "version", "internalID", "referenceName", "subscriptionGroupID", "locale",
        ]

        mutating func subscription(_ subscription: [String: Any], at location: String) {
            let used: Set<String> = [
                "productID", "type", "displayPrice", "groupNumber", "recurringSubscriptionPeriod",
                "introductoryOffer", "introductoryOffers", "localizations", "billingPlans", "familyShareable",
                "adHocOffers",
                "codeOffers", "winbackOffers",
            ]
            object(subscription, at: location, used: used)
            // One introductory offer per subscription is what the App Store sells to a new subscriber.
            for (index, offer) in StoreKitIgnoredFields.array(subscription["introductoryOffers"]).enumerated()
                .dropFirst()
            {
                warn("\(location).introductoryOffers[\(index)]", offer, "only the first introductory offer is sold")
            }
            if let offer = subscription["introductoryOffer"] as? [String: Any] {
                billingPlanType(offer, at: "\(location).introductoryOffer")
            }
            for key in ["adHocOffers", "codeOffers", "winbackOffers"] {
                for (index, offer) in StoreKitIgnoredFields.array(subscription[key]).enumerated() {
                    let at = "\(location).\(key)[\(index)]"
                    billingPlanType(offer, at: at)
                    if offer["isStackable"] as? Bool == true {
                        warn("\(at).isStackable", true, "stacking an offer code on another offer is not simulated")
                    }
                }
            }
            promotionalOffersNotShown(of: subscription, at: location)
            billingPlans(of: subscription, at: location)
        }

        /// A plan billed up front at `displayPrice` is how the simulator sells every subscription (StoreKit's
        /// `Product.displayPrice`). A plan that says otherwise is said with its own terms and what is sold instead:
        /// an annual plan was sold at 11.88 without a word while its up-front plan said 0.99 (session 34).
        private mutating func billingPlans(of subscription: [String: Any], at location: String) {
            let price = subscription["displayPrice"] as? String ?? ""
            let period = subscription["recurringSubscriptionPeriod"] as? String ?? ""
            let sold =
                "the paywall sells and charges \(price) every \(period), billed up front: the subscription's displayPrice"
            for (index, plan) in StoreKitIgnoredFields.array(subscription["billingPlans"]).enumerated()
            where plan["isEnabled"] as? Bool != false {
                let at = "\(location).billingPlans[\(index)]"
                let planPrice = plan["displayPrice"] as? String ?? ""
                switch plan["billingPlanType"] as? String {
                case "BILLED_UPFRONT":
                    guard Self.amount(planPrice) != Self.amount(price) else { continue }
                    warn(
                        "\(at).displayPrice", planPrice,
                        "\(planPrice), this plan's price billed up front, is not the subscription's displayPrice; "
                            + sold)
                case "MONTHLY":
                    let total = (plan["commitmentDisplayPrice"] as? String).map { ", \($0) in all" } ?? ""
                    warn(
                        at, plan,
                        "billing monthly for a 12-month commitment (\(planPrice) a month\(total)) is not simulated; "
                            + sold)
                default:
                    warn(at, plan, "only plans billed up front are sold; " + sold)
                }
            }
        }

        static func amount(_ text: String) -> Decimal? {
            Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        }

        /// A lapsed reader is shown one promotional offer: the first win-back offer, else the first ad hoc one (as
        /// the simulated store answers the app); the others are never offered, signed or sold (session 27).
        private mutating func promotionalOffersNotShown(of subscription: [String: Any], at location: String) {
            let winBack = StoreKitIgnoredFields.array(subscription["winbackOffers"])
            let shownList = winBack.isEmpty ? "adHocOffers" : "winbackOffers"
            guard let shown = StoreKitIgnoredFields.array(subscription[shownList]).first else { return }
            let shownName = Self.name(of: shown).map { " (\"\($0)\")" } ?? ""
            for list in ["adHocOffers", "winbackOffers"] {
                for (index, offer) in StoreKitIgnoredFields.array(subscription[list]).enumerated()
                where list != shownList || index > 0 {
                    warn(
                        "\(location).\(list)[\(index)]", offer,
                        "a lapsed reader is offered one promotional offer, \(shownList)[0]\(shownName); this one"
                            + (Self.name(of: offer).map { " (\"\($0)\")" } ?? "") + " is never offered")
                }
            }
        }

        static func name(of offer: [String: Any]) -> String? {
            [offer["offerID"], offer["referenceName"]].lazy.compactMap { $0 as? String }.first { !$0.isEmpty }
        }

        private mutating func billingPlanType(_ offer: [String: Any], at location: String) {
            if let type = offer["billingPlanType"] as? String, type != "BILLED_UPFRONT" {
                warn("\(location).billingPlanType", type, "\"\(type)\" is not simulated; the offer is billed up front")
            }
        }

        mutating func object(_ object: [String: Any], at location: String, used: Set<String>) {
            for key in object.keys.sorted() where !used.contains(key) && !Self.bookkeeping.contains(key) {
                let path = location.isEmpty ? key : "\(location).\(key)"
                warn(path, object[key] as Any, Self.reason(key))
            }
        }

        private mutating func warn(_ location: String, _ value: Any, _ message: String) {
            guard Self.holdsSomething(value) else { return }
            warnings.append(ConfigError(file: file, location: location, message: "ignored: \(message)"))
        }

        static func reason(_ key: String) -> String {
            switch key {
            case "privateKey": "offers are signed with the backend's own key, under the file's key ID"
            case "localizations": "the group's display names are not shown"
            default: "the simulator does not read this field"
            }
        }

        /// `[]`, `{}`, `""`, `false`, `0` and `null` hold nothing; neither does a structure of only those
        /// and bookkeeping.
        static func holdsSomething(_ value: Any) -> Bool {
            switch value {
            case let text as String: return !text.isEmpty
            case let flag as Bool: return flag
            case let number as Double: return number != 0
            case let list as [Any]: return list.contains(where: holdsSomething)
            case let object as [String: Any]:
                return object.contains { !bookkeeping.contains($0.key) && holdsSomething($0.value) }
            default: return false
            }
        }
    }
}
