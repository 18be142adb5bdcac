import CNcurses
import Testing

@testable import Simulation
@testable import TerminalUI

/// The transaction inspector (`t`): the Apple ID's transactions as rows of a frame, and a capital
/// letter on a row doing that row's control, as the loop does it.
struct TransactionInspectorTests {
    let size = TerminalSize(columns: 120, rows: 40)

    private func frame(_ world: World, _ state: FrontState) throws -> Frame {
        FrontView.render(
            FrontContent(world: world, inspecting: state.inspector != nil), state: state,
            theme: try TerminalFixture.theme(), size: size)
    }

    /// A key through the front as the loop passes it: mapped, applied to the front's state, then to the world.
    private func press(_ key: KeyPress, _ state: inout FrontState, _ world: World) {
        let content = FrontContent(world: world, inspecting: state.inspector != nil)
        guard let action = KeyMap.action(for: key, focus: state.focus, inspecting: state.inspector != nil) else {
            return
        }
        if case .control(let control) = state.apply(action, transactions: content.transactions ?? []) {
            _ = control.press(on: world)
            world.scheduler.runUntilIdle()
        }
    }

    @Test func tListsTheTransactionWithItsStateOwnerAndDeviceAndRRefundsTheSelectedRow() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        var state = FrontState()
        press(.character("t"), &state, world)
        let open = try frame(world, state).text
        #expect(open.contains("═ Transactions ═"))
        #expect(open.contains("> 2000000000000001  com.dailynews.premium.monthly  active"))
        #expect(open.contains("anonymous"))
        #expect(open.contains("anonymous anon-000    iphone"))
        #expect(open.contains("R refund · V revoke · E expire"))
        #expect(open.hasSuffix("↑↓ move · R V E A D I control · t/Esc close · ? keys · q quit"))
        // Lower-case letters move no money: only the capital does the control.
        press(.character("r"), &state, world)
        #expect(world.store.transactions(appleId: world.appleId).first?.revocationDate == nil)
        press(.character("R"), &state, world)
        #expect(try frame(world, state).text.contains("com.dailynews.premium.monthly  refunded/revoked"))
        #expect(world.timeline.entries.contains { $0.text == "refund 2000000000000001" })
        press(.character("t"), &state, world)
        #expect(!(try frame(world, state).text.contains("Transactions ═")))
    }

    @Test func aHeldPaymentIsARowApprovedWithA() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.askToBuy = true
        world.buyFromFeed()
        var state = FrontState()
        press(.character("t"), &state, world)
        let open = try frame(world, state).text
        #expect(open.contains("ask-to-buy-2      com.dailynews.premium.monthly  asks a parent"))
        #expect(open.contains("A approve · D decline"))
        press(.character("A"), &state, world)
        #expect(world.charges == 1)
    }
}
