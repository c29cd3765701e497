package com.rabbitmq.stream.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream;

/**
 * A key goes to the partition the stream client's own producers send it to: the extension's hash (commons-codec's
 * MurmurHash3) checked against the client's ({@code HashUtils.MURMUR3}, package-private, hence this test's package) on
 * random keys of every length, ASCII and not.
 */
class SuperStreamRoutingAgreesTest {

    @Test
    void everyKeyGoesWhereTheStreamClientSendsIt() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder key = new StringBuilder();
            int length = random.nextInt(24);
            for (int c = 0; c < length; c++) {
                key.append(random.nextInt(10) == 0 ? (char) (0x400 + random.nextInt(200)) : (char) ('a' + random.nextInt(26)));
            }
            int partitions = 1 + random.nextInt(12);
            int expected = Integer.remainderUnsigned(HashUtils.MURMUR3.applyAsInt(key.toString()), partitions);
            assertEquals(expected, SuperStream.partitionOf(key.toString(), partitions), key::toString);
        }
    }
}
