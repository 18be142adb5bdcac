import FoundationEssentials
import SimKernel

/// An introductory offer is a discount on the subscription it introduces: App Store Connect sets it as "a discounted
/// introductory price", and a paid one costing as much as the plan itself, or more, was sold as is, its sheet reading
/// "$9.99 per month for 3 months, then $4.99 per month" (session 38). A promotional offer is left alone: a real file
/// (RevenueCat's) prices one above its plan.
enum IntroductoryDiscount {
    /// Why a paid offer of `price` is no discount on the plan's `regular` price per `regularPeriod`, nil when it is one.
    /// A pay-as-you-go price pays for one `period`; a pay-up-front price for `period` times `count`. It is weighed
    /// against the plan's price for as long; weeks against months with the shortest month or the longest, whichever
    /// favours the offer, so only an offer that is no discount in any month is refused.
    static func problem(
        price: String, period: CalendarPeriod, count: Int, payUpFront: Bool, regular: String,
        regularPeriod: CalendarPeriod
    ) -> String? {
        guard let offered = Decimal(string: price), let plan = Decimal(string: regular) else { return nil }
        var paidFor = period
        if payUpFront { paidFor.value *= max(count, 1) }
        // The plan's price for `paidFor`, at its largest: plan × paidFor / regularPeriod.
        let (span, length): (Decimal, Decimal)
        switch (days(paidFor), days(regularPeriod), months(paidFor), months(regularPeriod)) {
        case (let offerDays?, let planDays?, _, _): (span, length) = (offerDays, planDays)
        case (_, _, let offerMonths?, let planMonths?): (span, length) = (offerMonths, planMonths)
        case (let offerDays?, _, _, let planMonths?): (span, length) = (offerDays, planMonths * 28)
        case (_, let planDays?, let offerMonths?, _): (span, length) = (offerMonths * 31, planDays)
        default: return nil
        }
        guard offered * length >= plan * span else { return nil }
        let charged = payUpFront ? "for \(paidFor.lengthDescription)" : "per \(period)"
        return "\"\(price)\" \(charged) is no introductory price: the subscription itself costs \"\(regular)\" per "
            + "\(regularPeriod), and an introductory offer is a discount on it (App Store Connect takes only "
            + "a lower price); lower it, or make it a free trial"
    }

    private static func days(_ period: CalendarPeriod) -> Decimal? {
        switch period.unit {
        case .day: Decimal(period.value)
        case .week: Decimal(period.value * 7)
        case .month, .year: nil
        }
    }

    private static func months(_ period: CalendarPeriod) -> Decimal? {
        switch period.unit {
        case .month: Decimal(period.value)
        case .year: Decimal(period.value * 12)
        case .day, .week: nil
        }
    }
}
