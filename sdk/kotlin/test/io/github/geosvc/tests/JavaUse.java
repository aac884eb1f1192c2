package io.github.geosvc.tests;

import io.github.geosvc.AdminLevel;
import io.github.geosvc.ApiException;
import io.github.geosvc.Callback;
import io.github.geosvc.CancellationToken;
import io.github.geosvc.ClientOptions;
import io.github.geosvc.ForbiddenException;
import io.github.geosvc.GeosvcClient;
import io.github.geosvc.GeosvcException;
import io.github.geosvc.LookupLayer;
import io.github.geosvc.LookupResult;
import io.github.geosvc.OsrmErrorCode;
import io.github.geosvc.OsrmException;
import io.github.geosvc.VectorTile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import kotlin.Unit;
import io.github.geosvc.MatrixResult;
import io.github.geosvc.Point;
import io.github.geosvc.TimeZoneInfo;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The SDK from Java (compiled by javac in build.sh, run by the Kotlin
 * harness against the live server): the @JvmOverloads forms without
 * Kotlin's default arguments, the Callback interface, the exceptions.
 */
public final class JavaUse {
    private JavaUse() {}

    /** Returns null when every check held, else what did not. */
    public static String run(String base, String key) throws InterruptedException {
        ClientOptions opts = new ClientOptions();
        opts.setMaxRetries(2);
        GeosvcClient c = new GeosvcClient(base, key, opts);
        Point dover = new Point(-75.5244, 39.1582);
        TimeZoneInfo tz = c.timeZone(dover);
        if (!"America/New_York".equals(tz.getName())) return "zone " + tz.getName();
        if (c.admin(dover, AdminLevel.Admin5).getArea() == null) return "no admin5 area";
        MatrixResult m = c.matrix(Arrays.asList(dover), Arrays.asList(new Point(-75.5466, 39.7447)));
        if (m.getDurations() == null || m.getDurations().get(0).get(0) == null) return "matrix " + m.getRaw();
        try {
            new GeosvcClient(base, "gs_not_a_key_of_this_server_0123456789").timeZone(dover);
            return "a bad key was accepted";
        } catch (ForbiddenException e) {
            if (e.getStatus() != 403) return "403: " + e.getMessage();
        }
        try {
            c.geocode("");
            return "an empty address was accepted";
        } catch (ApiException e) {
            if (!"INVALID_REQUEST".equals(e.getGeocoderStatus())) return "geocode: " + e.getMessage();
        }
        // The calls of this round from Java: a batch and its stream (a Kotlin function type: return Unit.INSTANCE), a tile, OSRM's typed error.
        List<LookupResult> rs = c.lookupsBatch(Arrays.asList(dover), Arrays.asList(LookupLayer.Admin, LookupLayer.Zip4));
        if (rs.size() != 1 || rs.get(0).getZip4() == null || !"199010936".equals(rs.get(0).getZip4().getAreas().get(0).getZip9())) return "lookupsBatch " + rs;
        final List<Integer> streamed = new ArrayList<>();
        int n = c.lookupsBatchStream(Arrays.asList(dover, dover), Collections.singletonList(LookupLayer.Timezone), r -> { streamed.add(r.getIndex()); return Unit.INSTANCE; });
        if (n != 2 || !streamed.equals(Arrays.asList(0, 1))) return "lookupsBatchStream " + streamed;
        VectorTile vt = c.vectorTile(14, 4754, 6252);
        if (vt.isEmpty() || !VectorTile.MEDIA_TYPE.equals(vt.getContentType())) return "vectorTile " + vt.getBytes().length + " " + vt.getContentType();
        try {
            c.osrmNearest(new Point(-74.0, 38.0), 1, "car", Collections.singletonMap("radiuses", "50"));
            return "a nearest road in the open sea";
        } catch (OsrmException e) {
            if (e.getCode() != OsrmErrorCode.NoSegment) return "osrm: " + e.getMessage();
        }
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<String> got = new AtomicReference<>();
        CancellationToken call = c.enqueue(token -> c.timeZone(dover, token), new Callback<TimeZoneInfo>() {
            @Override public void onSuccess(TimeZoneInfo value) { got.set(value.getName()); done.countDown(); }
            @Override public void onFailure(GeosvcException error) { got.set(error.toString()); done.countDown(); }
        });
        if (call == null || !done.await(30, TimeUnit.SECONDS)) return "no callback";
        if (!"America/New_York".equals(got.get())) return "async: " + got.get();
        return null;
    }
}
