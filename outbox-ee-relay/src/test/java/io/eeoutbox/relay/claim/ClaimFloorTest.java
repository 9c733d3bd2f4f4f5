package io.eeoutbox.relay.claim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClaimFloorTest {

    private static final long S = 1_000_000_000L;

    @Test
    void startsAtTheHeadThenWhereItClaimedOneIntervalAgo() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        assertThat(floor.next(0)).as("the first claim walks the whole index").isZero();
        floor.claimed(0, 100, 120, false);
        assertThat(floor.next(S / 2)).as("nothing claimed a whole interval ago yet").isZero();
        floor.claimed(S / 2, 150, 160, false);
        assertThat(floor.next(S / 2 + S / 4)).as("no claim is one interval old yet")
                .isZero();
    }

    @Test
    void aBoundOnlyFromClaimsAtLeastOneIntervalOld() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        assertThat(floor.next(0)).isZero();
        floor.claimed(0, 100, 120, false);
        floor.claimed(S / 2, 300, 320, false);
        assertThat(floor.next(S + 1)).as("a full rescan is due: one interval since the last").isZero();
        floor.claimed(S + 1, 400, 420, false);
        assertThat(floor.next(S + S / 4)).as("the claim at 0 s is one interval old, the one at 0.5 s not yet")
                .isEqualTo(100);
        assertThat(floor.next(S + S / 2 + 1)).isEqualTo(300);
    }

    @Test
    void aFullClaimIsFollowedByOneAfterItsLastRow() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        assertThat(floor.next(0)).isZero();
        floor.claimed(0, 1, 500, true);
        assertThat(floor.next(1)).as("the backlog is walked once").isEqualTo(501);
        floor.claimed(1, 501, 1000, false);
        assertThat(floor.next(2)).as("a batch that was not full ends the run").isZero();
    }

    @Test
    void aLongBacklogStillStartsAtTheHeadOnceAnInterval() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        assertThat(floor.next(0)).isZero();
        floor.claimed(0, 1, 500, true);
        assertThat(floor.next(S / 2)).isEqualTo(501);
        floor.claimed(S / 2, 501, 1000, true);
        assertThat(floor.next(S)).as("a rescan is due though the batches are full: a due retry below is found")
                .isZero();
        floor.claimed(S, 2, 1500, true);
        assertThat(floor.next(S + 1)).as("then the backlog goes on after the rescan's last row").isEqualTo(1501);
    }

    @Test
    void aNewDrainDoesNotGoOnAfterTheLastFullClaimOfThePreviousOne() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        assertThat(floor.next(0)).isZero();
        floor.claimed(0, 1, 500, true); // full, then the drain ended (rows released, or the relay paused)
        floor.runEnded();
        assertThat(floor.next(1)).as("rows of that batch that were released are not skipped").isZero();
    }

    @Test
    void aClaimStartsNoHigherThanRowsReportedDueSinceTheLastClaim() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        assertThat(floor.next(0)).isZero();
        floor.claimed(0, 1, 4991, true); // ordered mode: the heads of 500 aggregates of 10 events each
        floor.mayBeDueFrom(2);
        floor.mayBeDueFrom(12);
        assertThat(floor.next(1)).as("the next event of the first completed head, not after the batch's last row")
                .isEqualTo(2);
        floor.claimed(1, 2, 4992, true);
        assertThat(floor.next(2)).as("reported once: then the batch's continuation").isEqualTo(4993);
    }

    @Test
    void rowsReportedDueBelowTheBoundAreFoundByTheNextDrainToo() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        floor.next(0);
        floor.claimed(0, 100, 120, false);
        floor.next(S / 2);
        floor.claimed(S / 2, 300, 320, false);
        floor.next(S + 1); // the rescan
        floor.claimed(S + 1, 400, 420, false);
        floor.mayBeDueFrom(250);
        floor.runEnded();
        assertThat(floor.next(S + S / 2 + 1)).as("the bound is 300 by now, but 250 was reported").isEqualTo(250);
        floor.mayBeDueFrom(150);
        assertThat(floor.next(S + S / 2 + 2)).isEqualTo(150);
        assertThat(floor.next(S + S / 2 + 3)).isEqualTo(300);
        floor.mayBeDueFrom(5);
        floor.reset();
        floor.next(S + S / 2 + 4);
        floor.claimed(S + S / 2 + 4, 400, 420, false);
        assertThat(floor.next(S + S / 2 + 5)).as("a reset forgets the report with the bound").isZero();
    }

    @Test
    void zeroIntervalOrAResetMeansFromTheHead() {
        ClaimFloor off = new ClaimFloor(Duration.ZERO);
        off.claimed(0, 100, 200, true);
        assertThat(off.next(5 * S)).isZero();
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        floor.next(0);
        floor.claimed(0, 100, 200, false);
        floor.next(S / 2);
        floor.reset();
        assertThat(floor.next(S / 2 + 1)).isZero();
    }

    /** Ordered mode, schema V11 (decision 0017): claims walk on from where the last walk ended, with sweeps between. */
    @Test
    void orderedClaimsWalkOnFromWalkNextAndSweepAsOftenAsSixteenTimesTheirCostAllows() {
        ClaimFloor floor = new ClaimFloor(Duration.ofSeconds(1));
        assertThat(floor.next(0)).isZero();
        floor.claimed(0, 1, 1, false);
        floor.walked(2_000, S / 100); // the walk from 0 looked at everything up to 1,999 and took 10 ms
        assertThat(floor.next(S / 100)).as("a hot aggregate's later events below are not walked again")
                .isEqualTo(2_000);
        floor.claimed(S / 100, 2, 2, false);
        floor.walked(2_000, S / 10_000); // a cheap claim: only a sweep's cost counts
        assertThat(floor.next(S / 10)).isEqualTo(2_000);
        floor.claimed(S / 10, 3, 3, false);
        floor.walked(2_001, S / 10_000);
        floor.mayBeDueFrom(40); // a completed row whose aggregate got nothing
        assertThat(floor.next(S / 10 + 1)).as("reported rows still come first").isEqualTo(40);
        floor.claimed(S / 10 + 1, 4, 40, false);
        floor.walked(2_001, S / 10_000);
        assertThat(floor.next(S / 5)).as("16 x 10 ms since the sweep: the next claim sweeps from the bound")
                .isZero();
        floor.claimed(S / 5, 5, 5, false);
        floor.walked(2_002, S / 10_000); // that sweep was cheap: 0.1 ms
        assertThat(floor.next(S / 5 + S / 1000)).as("1 ms after a sweep of 0.1 ms: walk on").isEqualTo(2_002);
        floor.claimed(S / 5 + S / 1000, 6, 6, false);
        floor.walked(2_003, S / 10_000);
        assertThat(floor.next(S / 5 + S / 500)).as("2 ms after it: cheap sweeps come often").isZero();
        floor.claimed(S / 5 + S / 500, 7, 7, false);
        floor.walked(2_004, S / 10_000);
        floor.runEnded();
        assertThat(floor.next(S / 5 + S / 500 + 1)).as("a new drain starts at the bound").isZero();
    }
}
