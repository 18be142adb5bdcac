import Foundation
import Testing
import WhiteLabel

/// A `.storekit` file's `familyShareable` is the product's `isFamilyShareable`, not an ignored field.
@Suite struct StoreKitFamilyShareableTests {
    @Test func aShareableSubscriptionInTheFileIsShareableInTheStore() throws {
        let path = "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit"
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var groups = try #require(json["subscriptionGroups"] as? [[String: Any]])
        var subscriptions = try #require(groups[0]["subscriptions"] as? [[String: Any]])
        subscriptions[0]["familyShareable"] = true
        groups[0]["subscriptions"] = subscriptions
        json["subscriptionGroups"] = groups
        let data = try JSONSerialization.data(withJSONObject: json)
        let configuration = try StoreKitConfiguration.decode(data, file: "family.storekit")
        let shared = try #require(
            configuration.products.first { $0.productId == subscriptions[0]["productID"] as? String })
        #expect(shared.isFamilyShareable == true)
        #expect(configuration.products.filter { $0.isFamilyShareable == true }.count == 1)
        #expect(!configuration.warnings.contains { "\($0)".contains("familyShareable") })
    }
}
