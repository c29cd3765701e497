package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.math.BigDecimal;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import com.rabbitmq.client.LongString;

import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;

/** Reads a delivery's retry-count header, which other services may write in any type, as a count of attempts. */
public final class RetryCountHeader {

    private static final Logger LOG = Logger.getLogger(RetryCountHeader.class);
    /** A whole number written out, of any length. */
    private static final Pattern DIGITS = Pattern.compile("[+-]?[0-9]+");

    private RetryCountHeader() {
    }

    /**
     * The retry-count header as a count of at least 1: a number, or a string of digits (other services may write it
     * as text). Out of range, it is clamped, by one rule for both: zero or negative counts as the first delivery,
     * beyond the largest int (digits beyond the long range too) as the largest (so a cap ends it at once). Anything
     * else counts as the first. Each of those gets one WARN naming the header, the message and the queue.
     *
     * @param count the header's value; null when it is not there
     */
    static int read(Object count, String retryCountHeader, InboundDelivery delivery) {
        if (count == null) {
            return 1;
        }
        long value;
        if (count instanceof BigDecimal decimal) {
            // An AMQP decimal: longValue() would wrap beyond the long range; clamped as digits are.
            value = decimal.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE
                    : decimal.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 ? Long.MIN_VALUE
                            : decimal.longValue();
        } else if (count instanceof Number n) {
            value = n.longValue();
        } else {
            String text = count.toString().trim();
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                if (DIGITS.matcher(text).matches()) {
                    // Digits beyond the long range: clamped as the same value written as a number is.
                    value = text.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
                } else {
                    LOG.warnf("The %s header of %s on queue '%s' is not a count (%s '%s'): counting this delivery as the "
                            + "first", retryCountHeader, delivery.describe(), delivery.queue(),
                            count instanceof CharSequence || count instanceof LongString ? "text"
                                    : count.getClass().getSimpleName(),
                            LogText.of(text.length() > 100 ? text.substring(0, 100) + "..." : text));
                    return 1;
                }
            }
        }
        if (value < 1) {
            LOG.warnf("The %s header of %s on queue '%s' is %d, not a count: counting this delivery as the first",
                    retryCountHeader, delivery.describe(), delivery.queue(), value);
            return 1;
        }
        if (value > Integer.MAX_VALUE) {
            LOG.warnf("The %s header of %s on queue '%s' is %d, beyond any cap: counting it as %d", retryCountHeader,
                    delivery.describe(), delivery.queue(), value, Integer.MAX_VALUE);
            return Integer.MAX_VALUE;
        }
        return (int) value;
    }
}
