package dev.nimchart.startup;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether a process of a pod would send a request for a URL through a proxy, read from its environment the way each
 * HTTP client reads it. The variables come in two cases and the clients disagree on which wins, so a pod whose two
 * cases differ reaches a host directly with one client and through the proxy with another.
 *
 * <ul>
 * <li>{@link #PYTHON_REQUESTS}: Python's requests (2.32, requests/utils.py should_bypass_proxies and
 * get_environ_proxies) over urllib (urllib/request.py getproxies_environment, proxy_bypass_environment): the lower-case
 * variable first, the upper-case one only when the lower-case one is unset; an IP host bypasses when no_proxy lists it
 * or a CIDR holding it; a name bypasses when it ends with an entry (requests compares bare suffixes) or matches
 * {@code (.+\.)?entry$} (urllib, leading dots stripped); {@code *} bypasses all. HTTP_PROXY in upper case is ignored when
 * REQUEST_METHOD is set (a CGI process).</li>
 * <li>{@link #CURL}: curl (lib/url.c detect_proxy, lib/noproxy.c Curl_check_noproxy, 8.x): {@code http_proxy} only in
 * lower case; {@code https_proxy}, {@code all_proxy} and {@code no_proxy} lower case first, upper case accepted;
 * no_proxy entries split on commas and blanks, a leading dot stripped, a name matching exactly or as a dot-bounded
 * suffix, an IP address matching exactly or by CIDR; {@code *} alone bypasses all.</li>
 * </ul>
 */
public enum ProxyReaders {
    PYTHON_REQUESTS, CURL;

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /**
     * The proxy this client would use for a request to {@code scheme://host}, or empty when it goes directly.
     *
     * @param env    the process's environment
     * @param scheme http or https
     * @param host   a host name or an IP address (no port)
     */
    public Optional<String> proxyFor(Map<String, String> env, String scheme, String host) {
        String proxy = proxyVariable(env, scheme);
        if (proxy == null || proxy.isEmpty()) {
            return Optional.empty();
        }
        String noProxy = firstSet(env, "no_proxy", "NO_PROXY");
        return bypasses(noProxy == null ? "" : noProxy, host) ? Optional.empty() : Optional.of(proxy);
    }

    /**
     * Every in-cluster host of {@code hosts} that some client would reach through a proxy with this environment, for
     * http and https, one line each ("READER sends SCHEME://HOST through PROXY"); empty when every one goes directly.
     * The one check of the offline test and the start-up tier.
     */
    public static List<String> proxiedHosts(Map<String, String> env, java.util.Collection<String> hosts) {
        List<String> out = new ArrayList<>();
        for (String host : new java.util.LinkedHashSet<>(hosts)) {
            for (ProxyReaders reader : values()) {
                for (String scheme : List.of("http", "https")) {
                    reader.proxyFor(env, scheme, host).ifPresent(proxy -> out.add(reader.label() + " sends " + scheme + "://" + host
                            + " through " + proxy + " (no_proxy=" + env.get("no_proxy") + ", NO_PROXY=" + env.get("NO_PROXY") + ")"));
                }
            }
        }
        return out;
    }

    /** The client's name in a report. */
    public String label() {
        return this == CURL ? "curl" : "Python requests";
    }

    private String proxyVariable(Map<String, String> env, String scheme) {
        String lower = scheme.toLowerCase(Locale.ROOT) + "_proxy";
        if (this == CURL) {
            String value = scheme.equalsIgnoreCase("http") ? env.get("http_proxy") : firstSet(env, lower, lower.toUpperCase(Locale.ROOT));
            return value != null && !value.isEmpty() ? value : firstSet(env, "all_proxy", "ALL_PROXY");
        }
        // urllib: every *_proxy variable of any case, then the lower-case ones again, so they win; an empty value
        // removes the scheme. REQUEST_METHOD set: upper-case HTTP_PROXY is not read (httpoxy).
        String value = env.get(lower);
        if (value == null && !(scheme.equalsIgnoreCase("http") && env.containsKey("REQUEST_METHOD"))) {
            value = env.get(lower.toUpperCase(Locale.ROOT));
        }
        if (value == null) {
            value = env.containsKey("all_proxy") ? env.get("all_proxy") : env.get("ALL_PROXY");
        }
        return value;
    }

    private static String firstSet(Map<String, String> env, String lower, String upper) {
        String value = env.get(lower);
        return value != null && !value.isEmpty() ? value : env.get(upper);
    }

    private boolean bypasses(String noProxy, String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        List<String> entries = new ArrayList<>();
        for (String e : noProxy.split(this == CURL ? "[,\\s]+" : ",")) {
            if (!e.strip().isEmpty()) {
                entries.add(e.strip().toLowerCase(Locale.ROOT));
            }
        }
        if (this == CURL && noProxy.strip().equals("*")) {
            return true;
        }
        boolean ip = IPV4.matcher(h).matches() || h.contains(":");
        for (String entry : entries) {
            if (this == PYTHON_REQUESTS && entry.equals("*")) {
                return true;
            }
            if (ip) {
                if (entry.contains("/") ? inCidr(h, entry) : entry.equals(h)) {
                    return true;
                }
                continue;
            }
            if (this == CURL) {
                String name = entry.startsWith(".") ? entry.substring(1) : entry;
                if (h.equals(name) || (h.endsWith(name) && h.charAt(h.length() - name.length() - 1) == '.')) {
                    return true;
                }
            } else {
                // requests: a bare suffix; then urllib: (.+\.)?name$ with leading dots stripped.
                String name = entry.replaceFirst("^\\.+", "");
                if (h.endsWith(entry) || h.equals(name) || h.endsWith("." + name)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether an IP address lies in a CIDR (IPv4 or IPv6); false for an entry that is not a CIDR. */
    static boolean inCidr(String address, String cidr) {
        try {
            String[] parts = cidr.split("/", 2);
            if (!(IPV4.matcher(parts[0]).matches() || parts[0].contains(":")) || !(IPV4.matcher(address).matches() || address.contains(":"))) {
                return false; // never a name lookup
            }
            byte[] net = InetAddress.getByName(parts[0]).getAddress();
            byte[] addr = InetAddress.getByName(address).getAddress();
            int bits = Integer.parseInt(parts[1]);
            if (net.length != addr.length || bits < 0 || bits > net.length * 8) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >> (i % 8);
                if ((net[i / 8] & mask) != (addr[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException | NumberFormatException e) {
            return false;
        }
    }
}
