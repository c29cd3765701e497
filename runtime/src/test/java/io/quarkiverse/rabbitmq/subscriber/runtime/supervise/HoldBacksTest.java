package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** What holds a subscriber back, made before its supervisor; no application, no broker. */
class HoldBacksTest {

    private final HoldBacks holdBacks = new HoldBacks();

    @Test
    void aBoundHoldsBackWithoutPausingAndThePausesAreTheApplicationsAndTheKillSwitchs() {
        holdBacks.under("held copies").full();
        assertEquals(Set.of("held copies"), holdBacks.now());
        assertFalse(holdBacks.paused(), "a bound holds back for a moment: no pause");
        holdBacks.holdBack(KillSwitch.HOLDING);
        assertTrue(holdBacks.paused());
        holdBacks.takeAgain(KillSwitch.HOLDING);
        holdBacks.holdBack(HoldBacks.BY_APPLICATION);
        assertTrue(holdBacks.paused());
        holdBacks.takeAgain(HoldBacks.BY_APPLICATION);
        holdBacks.under("held copies").room();
        assertEquals(Set.of(), holdBacks.now());
    }

    @Test
    void theSupervisorIsToldEveryChangeInTheOrderTheyWereMade() {
        holdBacks.holdBack("before the supervisor");
        List<String> told = new ArrayList<>();
        holdBacks.reactWith((what, held) -> told.add((held ? "hold " : "take ") + what));
        holdBacks.under("unsettled bytes").full();
        holdBacks.holdBack(HoldBacks.BY_APPLICATION);
        holdBacks.under("unsettled bytes").room();
        assertEquals(List.of("hold unsettled bytes", "hold " + HoldBacks.BY_APPLICATION, "take unsettled bytes"), told);
        assertEquals(Set.of("before the supervisor", HoldBacks.BY_APPLICATION), holdBacks.now());
    }

    @Test
    void theSupervisorOfAHoldBacksPausesThroughIt() {
        SubscriberSupervisor supervisor = new SubscriberSupervisor("Handler#handle", "orders", null, null, null,
                Runnable::run, holdBacks);
        holdBacks.holdBack(HoldBacks.BY_APPLICATION);
        assertTrue(supervisor.paused());
        supervisor.holdBacks().takeAgain(HoldBacks.BY_APPLICATION);
        assertFalse(supervisor.paused());
    }
}
