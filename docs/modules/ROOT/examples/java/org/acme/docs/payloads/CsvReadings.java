package org.acme.docs.payloads;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;

// tag::codec[]
@ApplicationScoped
public class CsvReadings implements PayloadCodec {

    @Override
    public boolean decodes(String contentType, Type type) { // asked first, for each message
        return "text/csv".equals(contentType) && type == Reading.class;
    }

    @Override
    public Object decode(byte[] body, String contentType, Type type) {
        String[] fields = new String(body, StandardCharsets.UTF_8).split(",");
        return new Reading(fields[0], Double.parseDouble(fields[1])); // a throw: the body is undecodable
    }

    @Override
    public boolean encodes(Class<?> type) { // every Reading sent is written as CSV
        return type == Reading.class;
    }

    @Override
    public String contentType(Class<?> type) {
        return "text/csv";
    }

    @Override
    public byte[] encode(Object payload) {
        Reading reading = (Reading) payload;
        return (reading.sensor() + "," + reading.value()).getBytes(StandardCharsets.UTF_8);
    }
}
// end::codec[]
