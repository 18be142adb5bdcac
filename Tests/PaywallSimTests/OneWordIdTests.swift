import Foundation
import Testing
import WhiteLabel

/// Ids a scenario names as one word (session 37): an offer "premium monthly" loaded and sold, but no line could select
/// it and a recording of its purchase did not replay. Refused at the field, in a config and in a `.storekit` file.
@Suite struct OneWordIdTests {
    @Test(arguments: [
        ("\"id\": \"premium-monthly\"", "\"id\": \"premium monthly\"", "app.subscriptions[1].id"),
        ("\"id\": \"premium-monthly\"", "\"id\": \"premium#monthly\"", "app.subscriptions[1].id"),
        ("\"id\": \"night-trains\"", "\"id\": \"night,trains\"", "app.content[1].id"),
        ("\"id\": \"night-trains\"", "\"id\": \"night\\ttrains\"", "app.content[1].id"),
    ])
    func anIdAScenarioCannotNameIsRefusedAtItsField(_ from: String, _ to: String, _ field: String) throws {
        let error = try #require(try TestSupport.configError(replacing: from, with: to))
        #expect(error.location == field)
        #expect(error.message.contains("a scenario names it as one word"))
    }

    @Test func aLevelAScenarioCannotNameIsRefusedWhereTheProductGrantsIt() throws {
        let error = try #require(try TestSupport.configError(replacing: "[\"premium\"]", with: "[\"premium plus\"]"))
        #expect(error.location?.hasPrefix("backend.productLevels.") == true)
        #expect(error.message == "\"premium plus\" holds a space: a scenario names it as one word")
    }

    private static let foodTruck = """
        {"subscriptionGroups": [{"id": "1", "name": "Social Feed+", "subscriptions": [
          {"productID": "PRODUCT", "type": "RecurringSubscription", "displayPrice": "4.99",
           "recurringSubscriptionPeriod": "P1M", "subscriptionGroupID": "1", "groupNumber": 1,
           "localizations": [{"locale": "en_US", "displayName": "Monthly", "description": ""}],
           "codeOffers": [{"referenceName": "Free month", "paymentMode": "free", "subscriptionPeriod": "P1M",
                           "eligibility": ["new"]}]}]},
          {"id": "2", "name": "Other", "subscriptions": [
          {"productID": "other.monthly", "type": "RecurringSubscription", "displayPrice": "4.99",
           "recurringSubscriptionPeriod": "P1M", "subscriptionGroupID": "2", "groupNumber": 1,
           "localizations": [{"locale": "en_US", "displayName": "Other", "description": ""}],
           "codeOffers": [{"referenceName": "FREE MONTH", "paymentMode": "free", "subscriptionPeriod": "P1M",
                           "eligibility": ["new"]}]}]}]}
        """

    private func storekitError(productID: String) -> ConfigError? {
        let text = Self.foodTruck.replacing("PRODUCT", with: productID)
        do {
            _ = try StoreKitConfiguration.decode(Data(text.utf8), file: "Products.storekit")
            return nil
        } catch {
            return error
        }
    }

    @Test func aStoreKitProductIDAScenarioCannotNameIsRefusedAtItsField() throws {
        let error = try #require(storekitError(productID: "social feed"))
        #expect(error.location == "subscriptionGroups[0].subscriptions[0].productID")
        #expect(error.message == "\"social feed\" holds a space: a scenario names it as one word")
    }

    /// The config's check named `store.products[1].offerCodes[0]`, a field of no `.storekit` file.
    @Test func anOfferCodeGivenTwiceInAStoreKitFileIsNamedByTheFilesField() throws {
        let error = try #require(storekitError(productID: "social.monthly"))
        #expect(error.location == "subscriptionGroups[1].subscriptions[0].codeOffers[0].referenceName")
        #expect(error.message == "the code \"FREE MONTH\" is also an offer code of social.monthly")
    }
}
