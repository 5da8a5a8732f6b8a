#!/usr/bin/perl
# A minimal SMSC on Debian's libnet-smpp-perl, an SMPP implementation independent of Tasman's, for interop
# tests. It listens on an ephemeral loopback port (printed as "LISTENING <port>"), serves one connection at a
# time, and reports what it receives as one line per event on stdout:
#   BIND system_id=... password=...
#   SUBMIT dc=.. esm=.. src_ton=.. src_npi=.. src=.. dst_ton=.. dst=.. reg=.. sm=<hex of short_message>
#   RESP cmd=<hex> status=<n> seq=<n>            (responses from the ESME, e.g. deliver_sm_resp)
#   UNBIND / DISCONNECTED
# Message ids are hex in submit_sm_resp but DECIMAL in the receipt text (no TLVs), as some SMSCs do.
# A destination ending in 555 also triggers a two-part MO message (8-bit reference UDH).
use strict;
use warnings;
use Net::SMPP;

$| = 1;
my $listener = Net::SMPP->new_listen('127.0.0.1', port => 0, smpp_version => 0x34)
  or die "cannot listen: $!";
print 'LISTENING ', $listener->sockport, "\n";

my $counter = 0x2F00;

while (my $conn = $listener->accept) {
  print "CONNECTED\n";
  while (my $pdu = $conn->read_pdu) {
    my $cmd = $pdu->{cmd};
    if ($cmd == 0x00000009) {
      print "BIND system_id=$pdu->{system_id} password=$pdu->{password}\n";
      $conn->bind_transceiver_resp(seq => $pdu->{seq}, system_id => 'PERLSMSC');
    } elsif ($cmd == 0x00000015) {
      $conn->enquire_link_resp(seq => $pdu->{seq});
    } elsif ($cmd == 0x00000006) {
      print "UNBIND\n";
      $conn->unbind_resp(seq => $pdu->{seq});
      last;
    } elsif ($cmd == 0x00000004) {
      my $id = sprintf('%X', ++$counter);
      printf "SUBMIT dc=%d esm=%d src_ton=%d src_npi=%d src=%s dst_ton=%d dst=%s reg=%d sm=%s\n",
        $pdu->{data_coding}, $pdu->{esm_class}, $pdu->{source_addr_ton}, $pdu->{source_addr_npi},
        $pdu->{source_addr}, $pdu->{dest_addr_ton}, $pdu->{destination_addr}, $pdu->{registered_delivery},
        unpack('H*', $pdu->{short_message});
      $conn->submit_sm_resp(seq => $pdu->{seq}, message_id => $id);
      if ($pdu->{registered_delivery}) {
        my $decimal = hex($id);
        $conn->deliver_sm(async => 1,
          source_addr_ton => 1, source_addr_npi => 1, source_addr => $pdu->{destination_addr},
          dest_addr_ton => $pdu->{source_addr_ton}, dest_addr_npi => $pdu->{source_addr_npi},
          destination_addr => $pdu->{source_addr}, esm_class => 0x04, data_coding => 0,
          short_message => "id:$decimal sub:001 dlvrd:001 submit date:2401021304 done date:2401021305 "
            . "stat:DELIVRD err:000 text:");
      }
      if ($pdu->{destination_addr} =~ /555$/) {
        my $i = 0;
        for my $part ('Perl says hello ', 'in two parts') {
          $i++;
          $conn->deliver_sm(async => 1,
            source_addr_ton => 1, source_addr_npi => 1, source_addr => $pdu->{destination_addr},
            dest_addr_ton => 1, dest_addr_npi => 1, destination_addr => '61400000001',
            esm_class => 0x40, data_coding => 0, short_message => pack('C*', 5, 0, 3, 0x42, 2, $i) . $part);
        }
      }
    } elsif ($cmd & 0x80000000) {
      printf "RESP cmd=%08x status=%d seq=%d\n", $cmd, $pdu->{status}, $pdu->{seq};
    } else {
      $conn->generic_nack(seq => $pdu->{seq}, status => 3);
    }
  }
  print "DISCONNECTED\n";
  close $conn;
}
