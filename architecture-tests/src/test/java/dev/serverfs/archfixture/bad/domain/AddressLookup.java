package dev.serverfs.archfixture.bad.domain;

import java.net.InetAddress;
import java.net.UnknownHostException;

public final class AddressLookup {
    public byte[] resolve(String host) throws UnknownHostException {
        return InetAddress.getByName(host).getAddress();
    }
}
